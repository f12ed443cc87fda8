/**
 * The threads view's own URL keys, beside the shared selection, and the pure shaping of the rows:
 * sorting, grouping by process or by thread name, and where a click on a state leads.
 */
import { viewHref } from '../../shared/selection';
import { STATES, type Lock, type LockWaiter, type StateSource, type ThreadRow, type ThreadState } from './api';

export const SORT_KEYS = ['busy', 'wall', 'name', ...STATES, 'latency'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const GROUPS = ['thread', 'process', 'name'] as const;
export type Grouping = (typeof GROUPS)[number];

export interface ThreadsViewState {
  sort: SortKey;
  group: Grouping;
  /** Keep threads whose name matches (a regular expression, sent to the server). */
  match: string;
  /** The thread (`capture:tid`) and state whose details are open. */
  thread: string | null;
  state: ThreadState | null;
}

export const DEFAULT_VIEW: ThreadsViewState = { sort: 'busy', group: 'thread', match: '', thread: null, state: null };

export function readThreadsView(p: URLSearchParams): ThreadsViewState {
  const pick = <T extends string>(allowed: readonly T[], raw: string | null, fallback: T): T =>
    raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
  const rawThread = p.get('thread');
  const rawState = p.get('tstate');
  return {
    sort: pick(SORT_KEYS, p.get('sort'), 'busy'),
    group: pick(GROUPS, p.get('group'), 'thread'),
    match: p.get('match') ?? '',
    thread: rawThread !== null && /^\d+:-?\d+$/.test(rawThread) ? rawThread : null,
    state: rawState !== null && (STATES as readonly string[]).includes(rawState) ? (rawState as ThreadState) : null,
  };
}

/** Write the view's keys into `p` in place, leaving the shared selection alone. */
export function writeThreadsView(p: URLSearchParams, v: ThreadsViewState): URLSearchParams {
  for (const key of ['sort', 'group', 'match', 'thread', 'tstate']) p.delete(key);
  if (v.sort !== DEFAULT_VIEW.sort) p.set('sort', v.sort);
  if (v.group !== DEFAULT_VIEW.group) p.set('group', v.group);
  if (v.match) p.set('match', v.match);
  if (v.thread !== null) p.set('thread', v.thread);
  if (v.state !== null) p.set('tstate', v.state);
  return p;
}

/** A thread's key in the URL and in lists: its capture and tid. */
export const threadKey = (t: Pick<ThreadRow, 'capture_id' | 'tid'>): string => `${t.capture_id}:${t.tid}`;

/** Time that is neither sleep nor unknown: what people chase (running, waiting for a CPU, in D). */
export const busyNs = (t: ThreadRow): number => t.wall_ns - t.states.sleeping - t.states.unknown;

const share = (t: ThreadRow, s: ThreadState): number => (t.wall_ns > 0 ? t.states[s] / t.wall_ns : 0);

export function sortThreads<T extends ThreadRow>(rows: T[], key: SortKey): T[] {
  const value = (t: ThreadRow): number | string => {
    switch (key) {
      case 'busy':
        return -busyNs(t);
      case 'wall':
        return -t.wall_ns;
      case 'name':
        return t.comm;
      case 'latency':
        return -(t.latency.p99_ns ?? -1);
      default:
        return -share(t, key);
    }
  };
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va < vb) return -1;
    if (va > vb) return 1;
    return a.capture_id - b.capture_id || a.tid - b.tid;
  });
}

export interface ThreadGroup {
  key: string;
  label: string;
  /** The group's summed times, as one row (latency and stacks are per thread only). */
  total: ThreadRow;
  threads: ThreadRow[];
}

const emptyStates = (): Record<ThreadState, number> =>
  Object.fromEntries(STATES.map((s) => [s, 0])) as Record<ThreadState, number>;

/** Rows summed per process (pid) or per thread name; `thread` grouping keeps one row each. */
export function groupThreads(rows: ThreadRow[], grouping: Grouping, sort: SortKey): ThreadGroup[] {
  if (grouping === 'thread') {
    return sortThreads(rows, sort).map((t) => ({ key: threadKey(t), label: `${t.comm} ${t.tid}`, total: t, threads: [t] }));
  }
  const groups = new Map<string, ThreadRow[]>();
  for (const t of rows) {
    const key = grouping === 'process' ? `p${t.capture_id}:${t.pid ?? '?'}` : `n${t.comm}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const out: ThreadGroup[] = [];
  for (const [key, members] of groups) {
    const first = members[0];
    if (!first) continue;
    const states = emptyStates();
    const inferred = emptyStates();
    for (const t of members) {
      for (const s of STATES) {
        states[s] += t.states[s];
        inferred[s] += t.inferred[s];
      }
    }
    const total: ThreadRow = {
      ...first,
      tid: -1,
      wall_ns: members.reduce((sum, t) => sum + t.wall_ns, 0),
      states,
      inferred,
      intervals: members.reduce((sum, t) => sum + t.intervals, 0),
      inferred_intervals: members.reduce((sum, t) => sum + t.inferred_intervals, 0),
      latency: { count: 0, p50_ns: null, p90_ns: null, p99_ns: null, max_ns: null },
      wakers: [],
      top_stacks: {},
    };
    const where = first.host ? ` on ${first.host}` : '';
    const label =
      grouping === 'process'
        ? `pid ${first.pid ?? 'unknown'}${where} · ${first.comm} · ${members.length} threads`
        : `${first.comm} · ${members.length} threads`;
    out.push({ key, label, total, threads: sortThreads(members, sort) });
  }
  const order = sortThreads(
    out.map((g) => g.total),
    sort,
  );
  return order.map((total) => out.find((g) => g.total === total)).filter((g): g is ThreadGroup => g !== undefined);
}

/** Of a thread's wall time, the share whose end no event recorded (closed where it was next seen running). */
export const inferredShare = (t: ThreadRow): number =>
  t.wall_ns > 0 ? STATES.reduce((sum, s) => sum + t.inferred[s], 0) / t.wall_ns : 0;

/** How a lock reads in a list: its address (and process), or the code that waited on it. */
export function lockLabel(lock: Lock, frames = 3): string {
  if (lock.kind === 'address') return `futex ${lock.address ?? '?'}${lock.pid !== null ? ` in pid ${lock.pid}` : ''}`;
  const caller = lock.caller.length > 0 ? lock.caller : lock.frames;
  return `call site ${[...caller].reverse().slice(0, frames).join(' ← ') || '(no frames)'}`;
}

export interface ThreadLockWait {
  lock: Lock;
  wait: LockWaiter;
}

/** The locks one thread waited on, with its own part of each, longest total first. */
export function locksOf(locks: Lock[], t: Pick<ThreadRow, 'capture_id' | 'tid' | 'comm'>): ThreadLockWait[] {
  const out: ThreadLockWait[] = [];
  for (const lock of locks) {
    if (lock.capture_id !== t.capture_id) continue;
    const wait = lock.waiters.find((w) => w.tid === t.tid && w.comm === t.comm);
    if (wait) out.push({ lock, wait });
  }
  return out.sort((a, b) => b.wait.total_ns - a.wait.total_ns);
}

/** The kernel letter the off-CPU flame graph filters on for a breakdown state, if it has one. */
export const FLAME_STATE: Partial<Record<ThreadState, string>> = {
  sleeping: 'S',
  uninterruptible: 'D',
  runnable: 'R',
};

/** Where "the stacks that put it there" live: an off-CPU flame graph, or CPU samples when running. */
export function stacksHref(search: string, thread: Pick<ThreadRow, 'capture_id' | 'tid'>, state: ThreadState, source: StateSource): string | null {
  const p = new URLSearchParams(search);
  p.set('captures', String(thread.capture_id));
  p.set('tid', String(thread.tid));
  p.delete('pid');
  p.delete('comm');
  if (state === 'running') return viewHref('/flame', p);
  const letter = FLAME_STATE[state];
  if (letter === undefined || source !== 'sched') return null;
  return viewHref('/flame', p, { source: 'off-cpu', state: letter });
}

export const STATE_LABELS: Record<ThreadState, string> = {
  running: 'Running',
  runnable: 'Runnable (waiting for a CPU)',
  sleeping: 'Sleeping (S)',
  uninterruptible: 'Uninterruptible (D)',
  other: 'Other states',
  unknown: 'Unknown (nothing bounds it)',
};

/** One colour per state everywhere (bars, strips, legend): warm for trouble, cool for rest. */
export const STATE_COLORS: Record<ThreadState, string> = {
  running: '#58b368',
  runnable: '#e8a23c',
  sleeping: '#4f6d8f',
  uninterruptible: '#e0715a',
  other: '#9b7bd4',
  unknown: '#3a424d',
};
