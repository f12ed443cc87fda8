/**
 * The heatmap endpoints: typed requests and the decoders that turn their JSON into these types.
 */
import { arr, bool, nullable, num, obj, oneOf, str } from '../../api/decode';
import { getJson, getJsonTimed } from '../../api/http';

export const STREAMS = ['samples', 'off-cpu', 'on-cpu', 'syscall', 'fault', 'function', 'tracepoint'] as const;
export type HeatmapStream = (typeof STREAMS)[number];
export const VALUE_KINDS = ['count', 'duration'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

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

export interface HotCell {
  column: number;
  /** The column's first second (epoch seconds on the captures' timeline). */
  second: number;
  /** Seconds the column sums (1 unless merged). */
  seconds: number;
  row: number;
  offset_start_us: number;
  offset_end_us: number;
  value: number;
  count: number;
}

export interface HeatmapResponse {
  stream: HeatmapStream;
  value: ValueKind;
  /** `ns` for durations, else what is counted (samples, calls, intervals…). */
  unit: string;
  event: string | null;
  name: string | null;
  state: string | null;
  rows: number;
  row_us: number;
  first_second: number;
  column_seconds: number;
  columns: number;
  /** values[column][row] */
  values: number[][];
  counts: number[][] | null;
  row_totals: number[];
  max: number;
  total: number;
  total_count: number;
  unclosed: number;
  hot: HotCell[];
  wall_clock: boolean;
  notes: string[];
}

export interface StreamName {
  name: string;
  count: number;
  durations: boolean;
}

export interface StreamInfo {
  stream: HeatmapStream;
  count: number;
  unit: string;
  durations: boolean;
  /** Samples: perf events; off-CPU: scheduler states; others: event names. */
  names: StreamName[];
}

export interface StreamsResponse {
  streams: StreamInfo[];
  default: HeatmapStream | null;
  wall_clock: boolean;
  notes: string[];
}

const stream = oneOf(STREAMS);
const valueKind = oneOf(VALUE_KINDS);
const strings = (v: unknown, path: string): string[] => arr(v, path, str);
const numbers = (v: unknown, path: string): number[] => arr(v, path, num);
const matrix = (v: unknown, path: string): number[][] => arr(v, path, numbers);

function decodeHotCell(v: unknown, path: string): HotCell {
  const o = obj(v, path);
  return {
    column: num(o.column, `${path}.column`),
    second: num(o.second, `${path}.second`),
    seconds: num(o.seconds, `${path}.seconds`),
    row: num(o.row, `${path}.row`),
    offset_start_us: num(o.offset_start_us, `${path}.offset_start_us`),
    offset_end_us: num(o.offset_end_us, `${path}.offset_end_us`),
    value: num(o.value, `${path}.value`),
    count: num(o.count, `${path}.count`),
  };
}

export function decodeHeatmap(v: unknown): HeatmapResponse {
  const o = obj(v, 'heatmap');
  const values = matrix(o.values, 'heatmap.values');
  const columns = num(o.columns, 'heatmap.columns');
  const rows = num(o.rows, 'heatmap.rows');
  if (values.length !== columns || values.some((col) => col.length !== rows)) {
    throw new Error(`Unexpected API response at heatmap.values: expected ${columns} columns of ${rows} rows`);
  }
  return {
    stream: stream(o.stream, 'heatmap.stream'),
    value: valueKind(o.value, 'heatmap.value'),
    unit: str(o.unit, 'heatmap.unit'),
    event: nullable(str)(o.event, 'heatmap.event'),
    name: nullable(str)(o.name, 'heatmap.name'),
    state: nullable(str)(o.state, 'heatmap.state'),
    rows,
    row_us: num(o.row_us, 'heatmap.row_us'),
    first_second: num(o.first_second, 'heatmap.first_second'),
    column_seconds: num(o.column_seconds, 'heatmap.column_seconds'),
    columns,
    values,
    counts: nullable(matrix)(o.counts, 'heatmap.counts'),
    row_totals: numbers(o.row_totals, 'heatmap.row_totals'),
    max: num(o.max, 'heatmap.max'),
    total: num(o.total, 'heatmap.total'),
    total_count: num(o.total_count, 'heatmap.total_count'),
    unclosed: num(o.unclosed, 'heatmap.unclosed'),
    hot: arr(o.hot, 'heatmap.hot', decodeHotCell),
    wall_clock: bool(o.wall_clock, 'heatmap.wall_clock'),
    notes: strings(o.notes, 'heatmap.notes'),
  };
}

function decodeStreamName(v: unknown, path: string): StreamName {
  const o = obj(v, path);
  return { name: str(o.name, `${path}.name`), count: num(o.count, `${path}.count`), durations: bool(o.durations, `${path}.durations`) };
}

function decodeStreamInfo(v: unknown, path: string): StreamInfo {
  const o = obj(v, path);
  return {
    stream: stream(o.stream, `${path}.stream`),
    count: num(o.count, `${path}.count`),
    unit: str(o.unit, `${path}.unit`),
    durations: bool(o.durations, `${path}.durations`),
    names: arr(o.names, `${path}.names`, decodeStreamName),
  };
}

export function decodeStreams(v: unknown): StreamsResponse {
  const o = obj(v, 'streams');
  return {
    streams: arr(o.streams, 'streams.streams', decodeStreamInfo),
    default: nullable(stream)(o.default, 'streams.default'),
    wall_clock: bool(o.wall_clock, 'streams.wall_clock'),
    notes: strings(o.notes, 'streams.notes'),
  };
}

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

export function heatmapUrl(q: HeatmapQuery): string {
  const p = new URLSearchParams({
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
  return `/api/heatmap?${p.toString()}`;
}

const arrivals = new WeakMap<HeatmapResponse, number>();

/** When a response's body had arrived (performance.now()), for timing its render; cached ones have none. */
export const heatmapArrivedAt = (r: HeatmapResponse): number | undefined => arrivals.get(r);

export async function getHeatmap(q: HeatmapQuery, signal?: AbortSignal): Promise<HeatmapResponse> {
  const { value, received } = await getJsonTimed(heatmapUrl(q), decodeHeatmap, { fetch: 'heatmap:fetch', decode: 'heatmap:decode' }, signal);
  arrivals.set(value, received);
  return value;
}

export const getStreams = (captures: number[], signal?: AbortSignal): Promise<StreamsResponse> =>
  getJson(`/api/heatmap/streams?captures=${captures.join(',')}`, decodeStreams, signal);
