/** The heatmap endpoints: types (the API's) and typed requests. */
import { apiUrl, membersOf, routeQuery, type ApiUrl, type Schemas } from '../../api/contract';
import { getJson, getJsonTimed } from '../../api/http';

export type HeatmapResponse = Schemas['HeatmapOut'];
export type HotCell = Schemas['HotCellOut'];
export type StreamsResponse = Schemas['StreamsOut'];
export type StreamInfo = Schemas['StreamOut'];
export type StreamName = Schemas['StreamNameOut'];

export type HeatmapStream = HeatmapResponse['stream'];
export const STREAMS = membersOf<HeatmapStream>({
  samples: true,
  'off-cpu': true,
  'on-cpu': true,
  syscall: true,
  fault: true,
  function: true,
  tracepoint: true,
});
export type ValueKind = HeatmapResponse['value'];
export const VALUE_KINDS = membersOf<ValueKind>({ count: true, duration: true });

/** What each stream counts, as the server names it. */
export const COUNT_UNITS: Record<HeatmapStream, string> = {
  samples: 'samples',
  'off-cpu': 'intervals',
  'on-cpu': 'intervals',
  syscall: 'calls',
  fault: 'faults',
  function: 'calls',
  tracepoint: 'events',
};

export interface HeatmapQuery {
  captures: number[];
  stream: HeatmapStream;
  rows: number;
  value: ValueKind;
  /** Samples: the perf event; event streams: a name such as futex. Ignored for off-CPU. */
  name: string | null;
  /** Off-CPU only: a scheduler state. */
  state: string | null;
  pid: number | null;
  tid: number | null;
  comm: string | null;
  maxColumns: number;
}

export function heatmapUrl(q: HeatmapQuery): ApiUrl<'/api/heatmap'> {
  const p = routeQuery<'/api/heatmap'>({
    captures: q.captures.join(','),
    stream: q.stream,
    rows: String(q.rows),
    value: q.value,
    max_columns: String(q.maxColumns),
    top: '10',
  });
  if (q.stream === 'off-cpu') {
    if (q.state) p.set('state', q.state);
  } else if (q.name) p.set(q.stream === 'samples' ? 'event' : 'name', q.name);
  if (q.pid !== null) p.set('pid', String(q.pid));
  if (q.tid !== null) p.set('tid', String(q.tid));
  if (q.comm) p.set('comm', q.comm);
  return apiUrl('/api/heatmap', p);
}

const arrivals = new WeakMap<HeatmapResponse, number>();

/** When a response's body had arrived (performance.now()), for timing its render; cached ones have none. */
export const heatmapArrivedAt = (r: HeatmapResponse): number | undefined => arrivals.get(r);

export async function getHeatmap(q: HeatmapQuery, signal?: AbortSignal): Promise<HeatmapResponse> {
  const { value, received } = await getJsonTimed(heatmapUrl(q), { fetch: 'heatmap:fetch', decode: 'heatmap:decode' }, signal);
  arrivals.set(value, received);
  return value;
}

export const getStreams = (captures: number[], signal?: AbortSignal): Promise<StreamsResponse> =>
  getJson(apiUrl('/api/heatmap/streams', routeQuery<'/api/heatmap/streams'>({ captures: captures.join(',') })), signal);
