/** The thread-state endpoints: types (the API's) and typed calls. */
import { apiUrl, membersOf, type RouteQuery, type Schemas } from '../../api/contract';
import { epochUsFromIso } from '../../shared/selection';
import { getJsonTimed } from '../../api/http';

export type ThreadState = Schemas['SegmentOut']['state'];
export const STATES = membersOf<ThreadState>({ running: true, runnable: true, sleeping: true, uninterruptible: true, other: true, unknown: true });
export type StateSource = Schemas['ThreadsOut']['source'];

export type Latency = Schemas['LatencyOut'];
export type TopStack = Schemas['TopStackOut'];
export type ThreadRow = Schemas['ThreadOut'];
export type LockWaiter = Schemas['LockWaiterOut'];
/** A futex and the threads that waited on it: by address, or by blocking stack (`site`) when the capture has no address. */
export type Lock = Schemas['LockOut'];

export type ThreadsResponse = Schemas['ThreadsOut'] & {
  /** performance.now() when the body arrived, for the render measure. */
  received: number;
};

export interface Segment {
  startUs: number;
  endUs: number;
  state: ThreadState;
  /** No event closed it: it ends where the thread was next seen running. */
  inferred: boolean;
}

export type StripResponse = Omit<Schemas['StripOut'], 'segments'> & {
  segments: Segment[];
};

/** A segment with its ends in epoch µs, for drawing. */
function segmentOf(s: Schemas['SegmentOut']): Segment {
  const startUs = epochUsFromIso(s.start);
  const endUs = epochUsFromIso(s.end);
  if (startUs === null || endUs === null) throw new Error(`The server sent a segment time this console cannot read: ${s.start} → ${s.end}`);
  return { startUs, endUs, state: s.state, inferred: s.inferred };
}

/** The strip with its segments' ends in epoch µs. */
export const stripOf = (answer: Schemas['StripOut']): StripResponse => ({ ...answer, segments: answer.segments.map(segmentOf) });

export async function getThreads(params: RouteQuery<'/api/threads'>, signal?: AbortSignal): Promise<ThreadsResponse> {
  const { value, received } = await getJsonTimed(apiUrl('/api/threads', params), { fetch: 'threads:fetch', decode: 'threads:decode' }, signal);
  return { ...value, received };
}

export async function getStrip(params: RouteQuery<'/api/threads/strip'>, signal?: AbortSignal): Promise<StripResponse> {
  const { value } = await getJsonTimed(apiUrl('/api/threads/strip', params), { fetch: 'strip:fetch', decode: 'strip:decode' }, signal);
  return stripOf(value);
}
