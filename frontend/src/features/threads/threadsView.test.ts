import { describe, expect, it } from 'vitest';
import type { Lock, ThreadRow } from './api';
import { DEFAULT_VIEW, groupThreads, inferredShare, lockLabel, locksOf, readThreadsView, sortThreads, stacksHref, writeThreadsView } from './threadsView';

const none = { running: 0, runnable: 0, sleeping: 0, uninterruptible: 0, other: 0, unknown: 0 };

const row = (
  tid: number,
  pid: number,
  comm: string,
  states: Partial<ThreadRow['states']>,
  p99: number | null = null,
  inferred: Partial<ThreadRow['inferred']> = {},
): ThreadRow => {
  const full = { ...none, ...states };
  return {
    capture_id: 1,
    host: 'db-1',
    pid,
    tid,
    comm,
    wall_ns: Object.values(full).reduce((a, b) => a + b, 0),
    states: full,
    inferred: { ...none, ...inferred },
    other_states: {},
    intervals: 1,
    inferred_intervals: Object.values(inferred).filter((v) => v > 0).length,
    latency: { count: p99 === null ? 0 : 1, p50_ns: p99, p90_ns: p99, p99_ns: p99, max_ns: p99 },
    wakers: [],
    top_stacks: {},
  };
};

const rows = [
  row(1, 10, 'db', { running: 10, sleeping: 90 }),
  row(2, 10, 'db', { uninterruptible: 60, sleeping: 40 }, 5, { uninterruptible: 25 }),
  row(3, 20, 'web', { running: 30, runnable: 30, unknown: 40 }, 9),
];

describe('threads view state', () => {
  it('round-trips its keys beside the selection and drops bad values', () => {
    const v = { sort: 'uninterruptible' as const, group: 'process' as const, match: '^db', thread: '1:2', state: 'sleeping' as const };
    const p = writeThreadsView(new URLSearchParams('incident=1'), v);
    expect(p.get('incident')).toBe('1');
    expect(readThreadsView(p)).toEqual(v);
    expect(readThreadsView(new URLSearchParams('sort=bogus&tstate=zzz&thread=x'))).toEqual(DEFAULT_VIEW);
  });
});

describe('sorting and grouping', () => {
  it('sorts by busy time, a state share, name or latency', () => {
    expect(sortThreads(rows, 'busy').map((t) => t.tid)).toEqual([2, 3, 1]);
    expect(sortThreads(rows, 'sleeping').map((t) => t.tid)).toEqual([1, 2, 3]);
    expect(sortThreads(rows, 'name').map((t) => t.tid)).toEqual([1, 2, 3]);
    expect(sortThreads(rows, 'latency').map((t) => t.tid)).toEqual([3, 2, 1]);
  });

  it('sums threads per process and per name', () => {
    const byProcess = groupThreads(rows, 'process', 'busy');
    expect(byProcess.map((g) => g.key)).toEqual(['p1:10', 'p1:20']);
    expect(byProcess[0]?.total.states.uninterruptible).toBe(60);
    expect(byProcess[0]?.total.inferred.uninterruptible).toBe(25);
    expect(byProcess[0]?.total.wall_ns).toBe(200);
    expect(byProcess[0]?.threads.map((t) => t.tid)).toEqual([2, 1]);
    expect(groupThreads(rows, 'name', 'name').map((g) => g.label)).toEqual(['db · 2 threads', 'web · 1 threads']);
    expect(groupThreads(rows, 'thread', 'busy')).toHaveLength(3);
  });
});

describe('stacks for a state', () => {
  it('links blocked states to the off-CPU flame graph of that thread and running to CPU samples', () => {
    const search = 'incident=1&captures=4,5&comm=db&sort=busy';
    const t = { capture_id: 4, tid: 2 };
    expect(stacksHref(search, t, 'uninterruptible', 'sched')).toBe('/flame?incident=1&captures=4&tid=2&source=off-cpu&state=D');
    expect(stacksHref(search, t, 'running', 'sched')).toBe('/flame?incident=1&captures=4&tid=2');
    expect(stacksHref(search, t, 'unknown', 'sched')).toBeNull();
    expect(stacksHref(search, t, 'sleeping', 'proc-sampler')).toBeNull();
  });
});

const lock = (over: Partial<Lock>): Lock => ({
  capture_id: 1,
  host: 'db-1',
  pid: 10,
  kind: 'address',
  address: '0x55daf0cfb100',
  stack_id: null,
  frames: [],
  caller: [],
  waits: 3,
  total_ns: 30,
  longest_ns: 20,
  inferred_ns: 0,
  waiter_count: 2,
  waiters: [
    { pid: 10, tid: 1, comm: 'db', waits: 2, total_ns: 10, longest_ns: 8, inferred_ns: 0 },
    { pid: 10, tid: 2, comm: 'db', waits: 1, total_ns: 20, longest_ns: 20, inferred_ns: 0 },
  ],
  ...over,
});

describe('inferred time and locks', () => {
  it('gives the share of a thread whose end was inferred', () => {
    expect(inferredShare(rows[1] as ThreadRow)).toBe(0.25);
    expect(inferredShare(rows[0] as ThreadRow)).toBe(0);
  });

  it('names a lock by address, or by the code that waited when only the stack is known', () => {
    expect(lockLabel(lock({}))).toBe('futex 0x55daf0cfb100 in pid 10');
    const site = lock({ kind: 'site', address: null, pid: null, stack_id: 7, caller: ['start_thread', 'worker', 'pthread_mutex_lock'], frames: ['start_thread', 'worker', 'pthread_mutex_lock', 'do_syscall_64', 'futex_wait'] });
    expect(lockLabel(site, 2)).toBe('call site pthread_mutex_lock ← worker');
  });

  it('lists the locks one thread waited on, its own part of each, longest first', () => {
    const hot = lock({ address: '0x1', total_ns: 30 });
    const cold = lock({ address: '0x2', waiters: [{ pid: 10, tid: 1, comm: 'db', waits: 9, total_ns: 90, longest_ns: 30, inferred_ns: 0 }], waiter_count: 1 });
    const elsewhere = lock({ capture_id: 2, address: '0x3' });
    const mine = locksOf([hot, cold, elsewhere], { capture_id: 1, tid: 1, comm: 'db' });
    expect(mine.map((m) => [m.lock.address, m.wait.total_ns])).toEqual([
      ['0x2', 90],
      ['0x1', 10],
    ]);
  });
});
