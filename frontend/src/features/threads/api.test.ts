import { describe, expect, it } from 'vitest';
import { decodeStrip, decodeThreads } from './api';

const thread = {
  capture_id: 4,
  host: 'db-7',
  pid: 15687,
  tid: 15696,
  comm: 'fsync_io',
  wall_ns: 100,
  states: { running: 10, runnable: 40, sleeping: 0, uninterruptible: 50, other: 0, unknown: 0 },
  inferred: { running: 2, uninterruptible: 20 },
  other_states: {},
  intervals: 9,
  inferred_intervals: 3,
  latency: { count: 1, p50_ns: 5, p90_ns: 5, p99_ns: 5, max_ns: 5 },
  wakers: [{ tid: 0, comm: 'swapper/0', wakeups: 2 }],
  top_stacks: {
    uninterruptible: [
      { stack_id: 1, ns: 30, share: 0.6, count: 4, longest_ns: 12, frames: ['do_fsync', 'io_schedule'] },
      { stack_id: 2, ns: 20, share: 0.4, count: 2, longest_ns: 15, frames: ['do_fsync', 'bit_wait_io'] },
    ],
  },
};

const lock = {
  capture_id: 4,
  host: 'db-7',
  pid: null,
  kind: 'site',
  address: null,
  stack_id: 9,
  frames: ['start_thread', 'do_syscall_64', 'futex_wait'],
  caller: ['start_thread'],
  waits: 3,
  total_ns: 30,
  longest_ns: 20,
  inferred_ns: 5,
  waiter_count: 1,
  waiters: [{ pid: null, tid: 15696, comm: 'fsync_io', waits: 3, total_ns: 30, longest_ns: 20, inferred_ns: 5 }],
};

describe('threads decoders', () => {
  it('reads every heavy stack of a state, the inferred time and the locks', () => {
    const out = decodeThreads({ source: 'sched', threads: [thread], total_threads: 1, locks: [lock], notes: [] });
    const [t] = out.threads;
    expect(t?.top_stacks.uninterruptible?.map((s) => [s.count, s.longest_ns])).toEqual([
      [4, 12],
      [2, 15],
    ]);
    expect(t?.inferred).toEqual({ running: 2, runnable: 0, sleeping: 0, uninterruptible: 20, other: 0, unknown: 0 });
    expect(out.locks[0]?.kind).toBe('site');
    expect(out.locks[0]?.waiters[0]?.tid).toBe(15696);
    expect(() => decodeThreads({ source: 'sched', threads: [], total_threads: 0, locks: [{ ...lock, kind: 'mutex' }], notes: [] })).toThrow();
  });

  it('keeps a strip segment’s inferred mark', () => {
    const strip = decodeStrip({
      source: 'sched',
      tid: 15696,
      segments: [{ start: '1970-01-01T03:03:07.000000Z', end: '1970-01-01T03:03:07.000500Z', state: 'uninterruptible', inferred: true }],
    });
    expect(strip.segments[0]).toMatchObject({ state: 'uninterruptible', inferred: true });
    expect((strip.segments[0]?.endUs ?? 0) - (strip.segments[0]?.startUs ?? 0)).toBe(500);
  });
});
