/** The thread-state endpoints: types, decoders at the boundary, and typed calls. */
import { DecodeError, arr, bool, nullable, num, obj, oneOf, str } from '../../api/decode';
import { epochUsFromIso } from '../../shared/selection';
import { getJsonTimed } from '../../api/http';

export const STATES = ['running', 'runnable', 'sleeping', 'uninterruptible', 'other', 'unknown'] as const;
export type ThreadState = (typeof STATES)[number];
export type StateSource = 'sched' | 'proc-sampler' | 'none';

export interface Latency {
  count: number;
  p50_ns: number | null;
  p90_ns: number | null;
  p99_ns: number | null;
  max_ns: number | null;
}

export interface TopStack {
  stack_id: number;
  /** Total time in the state with this stack. */
  ns: number;
  /** Of the thread's time in the state. */
  share: number;
  count: number;
  longest_ns: number;
  /** Root first. */
  frames: string[];
}

export interface ThreadRow {
  /** Threads are per capture: the same tid on two hosts is two threads. */
  capture_id: number;
  host: string | null;
  pid: number | null;
  tid: number;
  comm: string;
  wall_ns: number;
  states: Record<ThreadState, number>;
  /** Of each state's time, what ends where the thread was next seen running (no closing event). */
  inferred: Record<ThreadState, number>;
  other_states: Record<string, number>;
  intervals: number;
  inferred_intervals: number;
  latency: Latency;
  wakers: { tid: number | null; comm: string; wakeups: number }[];
  /** Heaviest blocking stacks per state (at most 5), heaviest first. */
  top_stacks: Partial<Record<ThreadState, TopStack[]>>;
}

export interface LockWaiter {
  pid: number | null;
  tid: number;
  comm: string;
  waits: number;
  total_ns: number;
  longest_ns: number;
  inferred_ns: number;
}

/** A futex and the threads that waited on it: by address, or by blocking stack (`site`) when the capture has no address. */
export interface Lock {
  capture_id: number;
  host: string | null;
  pid: number | null;
  kind: 'address' | 'site';
  address: string | null;
  stack_id: number | null;
  /** A site's blocking stack, root first. */
  frames: string[];
  /** A site's frames before the system call, root first: the code that took the lock. */
  caller: string[];
  waits: number;
  total_ns: number;
  longest_ns: number;
  inferred_ns: number;
  waiter_count: number;
  waiters: LockWaiter[];
}

export interface ThreadsResponse {
  source: StateSource;
  threads: ThreadRow[];
  total_threads: number;
  locks: Lock[];
  notes: string[];
  /** performance.now() when the body arrived, for the render measure. */
  received: number;
}

export interface Segment {
  startUs: number;
  endUs: number;
  state: ThreadState;
  /** No event closed it: it ends where the thread was next seen running. */
  inferred: boolean;
}

export interface StripResponse {
  source: StateSource;
  tid: number;
  segments: Segment[];
}

const source = oneOf<StateSource>(['sched', 'proc-sampler', 'none']);
const lockKind = oneOf<Lock['kind']>(['address', 'site']);
const state = oneOf<ThreadState>(STATES);
const optNum = nullable(num);

function numberMap(v: unknown, path: string): Record<string, number> {
  const o = obj(v, path);
  const out: Record<string, number> = {};
  for (const [k, value] of Object.entries(o)) out[k] = num(value, `${path}.${k}`);
  return out;
}

function decodeThread(v: unknown, path: string): ThreadRow {
  const o = obj(v, path);
  const states = numberMap(o.states, `${path}.states`);
  const stacks = obj(o.top_stacks, `${path}.top_stacks`);
  const top: Partial<Record<ThreadState, TopStack[]>> = {};
  for (const [k, value] of Object.entries(stacks)) {
    top[state(k, `${path}.top_stacks`)] = arr(value, `${path}.top_stacks.${k}`, (v, p) => {
      const s = obj(v, p);
      return {
        stack_id: num(s.stack_id, `${p}.stack_id`),
        ns: num(s.ns, `${p}.ns`),
        share: num(s.share, `${p}.share`),
        count: num(s.count, `${p}.count`),
        longest_ns: num(s.longest_ns, `${p}.longest_ns`),
        frames: arr(s.frames, `${p}.frames`, str),
      };
    });
  }
  const inferred = numberMap(o.inferred, `${path}.inferred`);
  const lat = obj(o.latency, `${path}.latency`);
  return {
    capture_id: num(o.capture_id, `${path}.capture_id`),
    host: nullable(str)(o.host, `${path}.host`),
    pid: optNum(o.pid, `${path}.pid`),
    tid: num(o.tid, `${path}.tid`),
    comm: str(o.comm, `${path}.comm`),
    wall_ns: num(o.wall_ns, `${path}.wall_ns`),
    states: Object.fromEntries(STATES.map((s) => [s, states[s] ?? 0])) as Record<ThreadState, number>,
    inferred: Object.fromEntries(STATES.map((s) => [s, inferred[s] ?? 0])) as Record<ThreadState, number>,
    other_states: numberMap(o.other_states, `${path}.other_states`),
    intervals: num(o.intervals, `${path}.intervals`),
    inferred_intervals: num(o.inferred_intervals, `${path}.inferred_intervals`),
    latency: {
      count: num(lat.count, 'count'),
      p50_ns: optNum(lat.p50_ns, 'p50_ns'),
      p90_ns: optNum(lat.p90_ns, 'p90_ns'),
      p99_ns: optNum(lat.p99_ns, 'p99_ns'),
      max_ns: optNum(lat.max_ns, 'max_ns'),
    },
    wakers: arr(o.wakers, `${path}.wakers`, (w, p) => {
      const wo = obj(w, p);
      return { tid: optNum(wo.tid, `${p}.tid`), comm: str(wo.comm, `${p}.comm`), wakeups: num(wo.wakeups, `${p}.wakeups`) };
    }),
    top_stacks: top,
  };
}

function decodeLock(v: unknown, path: string): Lock {
  const o = obj(v, path);
  return {
    capture_id: num(o.capture_id, `${path}.capture_id`),
    host: nullable(str)(o.host, `${path}.host`),
    pid: optNum(o.pid, `${path}.pid`),
    kind: lockKind(o.kind, `${path}.kind`),
    address: nullable(str)(o.address, `${path}.address`),
    stack_id: optNum(o.stack_id, `${path}.stack_id`),
    frames: arr(o.frames, `${path}.frames`, str),
    caller: arr(o.caller, `${path}.caller`, str),
    waits: num(o.waits, `${path}.waits`),
    total_ns: num(o.total_ns, `${path}.total_ns`),
    longest_ns: num(o.longest_ns, `${path}.longest_ns`),
    inferred_ns: num(o.inferred_ns, `${path}.inferred_ns`),
    waiter_count: num(o.waiter_count, `${path}.waiter_count`),
    waiters: arr(o.waiters, `${path}.waiters`, (w, p) => {
      const wo = obj(w, p);
      return {
        pid: optNum(wo.pid, `${p}.pid`),
        tid: num(wo.tid, `${p}.tid`),
        comm: str(wo.comm, `${p}.comm`),
        waits: num(wo.waits, `${p}.waits`),
        total_ns: num(wo.total_ns, `${p}.total_ns`),
        longest_ns: num(wo.longest_ns, `${p}.longest_ns`),
        inferred_ns: num(wo.inferred_ns, `${p}.inferred_ns`),
      };
    }),
  };
}

export function decodeThreads(v: unknown): Omit<ThreadsResponse, 'received'> {
  const o = obj(v, 'threads');
  return {
    source: source(o.source, 'source'),
    threads: arr(o.threads, 'threads', decodeThread),
    total_threads: num(o.total_threads, 'total_threads'),
    locks: arr(o.locks, 'locks', decodeLock),
    notes: arr(o.notes, 'notes', str),
  };
}

function epochUs(v: unknown, path: string): number {
  const us = epochUsFromIso(str(v, path));
  if (us === null) throw new DecodeError(path, 'ISO 8601 time', v);
  return us;
}

export function decodeStrip(v: unknown): StripResponse {
  const o = obj(v, 'strip');
  return {
    source: source(o.source, 'source'),
    tid: num(o.tid, 'tid'),
    segments: arr(o.segments, 'segments', (s, p) => {
      const so = obj(s, p);
      return {
        startUs: epochUs(so.start, `${p}.start`),
        endUs: epochUs(so.end, `${p}.end`),
        state: state(so.state, `${p}.state`),
        inferred: bool(so.inferred, `${p}.inferred`),
      };
    }),
  };
}

export async function getThreads(params: URLSearchParams, signal?: AbortSignal): Promise<ThreadsResponse> {
  const { value, received } = await getJsonTimed(
    `/api/threads?${params.toString()}`,
    decodeThreads,
    { fetch: 'threads:fetch', decode: 'threads:decode' },
    signal,
  );
  return { ...value, received };
}

export async function getStrip(params: URLSearchParams, signal?: AbortSignal): Promise<StripResponse> {
  const { value } = await getJsonTimed(`/api/threads/strip?${params.toString()}`, decodeStrip, { fetch: 'strip:fetch', decode: 'strip:decode' }, signal);
  return value;
}
