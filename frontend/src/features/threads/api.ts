/** The thread-state endpoints: types, decoders at the boundary, and typed calls. */
import { DecodeError, arr, nullable, num, obj, oneOf, str } from '../../api/decode';
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
  ns: number;
  share: number;
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
  other_states: Record<string, number>;
  intervals: number;
  latency: Latency;
  wakers: { tid: number | null; comm: string; wakeups: number }[];
  top_stacks: Partial<Record<ThreadState, TopStack>>;
}

export interface ThreadsResponse {
  source: StateSource;
  threads: ThreadRow[];
  total_threads: number;
  notes: string[];
  /** performance.now() when the body arrived, for the render measure. */
  received: number;
}

export interface Segment {
  startUs: number;
  endUs: number;
  state: ThreadState;
}

export interface StripResponse {
  source: StateSource;
  tid: number;
  segments: Segment[];
}

const source = oneOf<StateSource>(['sched', 'proc-sampler', 'none']);
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
  const top: Partial<Record<ThreadState, TopStack>> = {};
  for (const [k, value] of Object.entries(stacks)) {
    const s = obj(value, `${path}.top_stacks.${k}`);
    top[state(k, `${path}.top_stacks`)] = {
      stack_id: num(s.stack_id, 'stack_id'),
      ns: num(s.ns, 'ns'),
      share: num(s.share, 'share'),
      frames: arr(s.frames, 'frames', str),
    };
  }
  const lat = obj(o.latency, `${path}.latency`);
  return {
    capture_id: num(o.capture_id, `${path}.capture_id`),
    host: nullable(str)(o.host, `${path}.host`),
    pid: optNum(o.pid, `${path}.pid`),
    tid: num(o.tid, `${path}.tid`),
    comm: str(o.comm, `${path}.comm`),
    wall_ns: num(o.wall_ns, `${path}.wall_ns`),
    states: Object.fromEntries(STATES.map((s) => [s, states[s] ?? 0])) as Record<ThreadState, number>,
    other_states: numberMap(o.other_states, `${path}.other_states`),
    intervals: num(o.intervals, `${path}.intervals`),
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

export function decodeThreads(v: unknown): Omit<ThreadsResponse, 'received'> {
  const o = obj(v, 'threads');
  return {
    source: source(o.source, 'source'),
    threads: arr(o.threads, 'threads', decodeThread),
    total_threads: num(o.total_threads, 'total_threads'),
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
      return { startUs: epochUs(so.start, `${p}.start`), endUs: epochUs(so.end, `${p}.end`), state: state(so.state, `${p}.state`) };
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
