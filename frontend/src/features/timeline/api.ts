/**
 * The timeline's API: tracks an incident offers, bucketed data for some of them, and annotations.
 * Types, URL builders and decoders live here, beside the only code that calls these endpoints.
 * Times inside track data are epoch microseconds (numbers); ISO strings only at the edges.
 */
import { arr, bool, DecodeError, nullable, num, obj, oneOf, str } from '../../api/decode';
import { deleteRequest, getJson, getJsonTimed, parseErrorText, postJson, REQUEST_HEADERS } from '../../api/http';
import { isoFromEpochUs, type EpochUs } from '../../shared/selection';

// --- track listing ----------------------------------------------------------------------------------

export interface CaptureRef {
  id: number;
  filename: string;
  kind: string | null;
  format: string | null;
  status: string;
  clock_mode: string;
  clock_note: string;
  time_start: string | null;
  time_end: string | null;
  on_timeline: boolean;
}

export interface CpuTrackInfo {
  type: 'cpu';
  id: string;
  host: string;
  label: string;
  event: string;
  samples: number;
  top: { comm: string; pid: number | null; samples: number }[];
  /** What was sampled: CPUs (perf and its kin), or threads' kernel stacks read from /proc. */
  origin: 'cpu' | 'proc-stack';
  /** /proc stack samples: the scheduler state the dumps were taken in, when they said. */
  state: string | null;
}

export interface OffCpuTrackInfo {
  type: 'offcpu';
  id: string;
  host: string;
  label: string;
  intervals: number;
  unclosed: number;
  states: { state: string; intervals: number; total_ns: number; max_ns: number | null }[];
}

export interface EventsTrackInfo {
  type: 'events';
  id: string;
  host: string;
  label: string;
  kind: string;
  name: string | null;
  count: number;
  names: { name: string; count: number; max_ns: number | null }[];
}

export interface MetricTrackInfo {
  type: 'metric';
  id: string;
  host: string;
  label: string;
  name: string;
  labels: Record<string, string>;
  unit: string | null;
  system: boolean;
  points: number;
  min: number | null;
  max: number | null;
}

export type TrackInfo = CpuTrackInfo | OffCpuTrackInfo | EventsTrackInfo | MetricTrackInfo;

export interface HostTracks {
  host: string;
  unaligned: boolean;
  captures: CaptureRef[];
  tracks: TrackInfo[];
}

export interface TrackListing {
  incident: number;
  time_start: string | null;
  time_end: string | null;
  hosts: HostTracks[];
}

// --- bucketed data ----------------------------------------------------------------------------------

export interface Grid {
  start_us: EpochUs;
  width_us: number;
  count: number;
}

export interface CpuGroup {
  comm: string;
  pid: number | null;
  other: boolean;
  total: number;
  counts: number[];
}

export interface CpuData {
  type: 'cpu';
  id: string;
  source: string;
  split: 'process' | 'thread';
  groups: CpuGroup[];
}

export interface StateSeries {
  state: string;
  total_ns: number;
  ns: number[];
}

export interface OffCpuData {
  type: 'offcpu';
  id: string;
  source: string;
  states: StateSeries[];
}

export interface EventMark {
  ts_us: EpochUs;
  duration_ns: number | null;
  name: string;
  pid: number | null;
  tid: number | null;
  comm: string;
}

export interface EventsData {
  type: 'events';
  id: string;
  source: string;
  mode: 'marks' | 'buckets';
  count: number;
  marks: EventMark[];
  buckets: { count: number[]; max_ns: (number | null)[] } | null;
}

export interface MetricData {
  type: 'metric';
  id: string;
  source: string;
  unit: string | null;
  mode: 'points' | 'buckets';
  count: number;
  points: { ts_us: EpochUs; value: number }[];
  buckets: { count: number[]; min: (number | null)[]; avg: (number | null)[]; max: (number | null)[] } | null;
}

export type TrackData = CpuData | OffCpuData | EventsData | MetricData;

export interface TimelineResponse {
  start: string;
  end: string;
  grid: Grid;
  tracks: TrackData[];
  missing: string[];
  query_ms: number;
}

export interface Annotation {
  id: number;
  incident_id: number;
  ts: string;
  text: string;
  host: string | null;
  created_at: string;
}

// --- decoders ---------------------------------------------------------------------------------------

const nstr = nullable(str);
const nnum = nullable(num);

/** A dense numeric array, checked without building a path string per element (they can be long). */
export function numbers(v: unknown, path: string): number[] {
  if (!Array.isArray(v)) throw new DecodeError(path, 'array', v);
  for (let i = 0; i < v.length; i += 1) {
    if (typeof v[i] !== 'number') throw new DecodeError(`${path}[${i}]`, 'number', v[i]);
  }
  return v as number[];
}

export function nullableNumbers(v: unknown, path: string): (number | null)[] {
  if (!Array.isArray(v)) throw new DecodeError(path, 'array', v);
  for (let i = 0; i < v.length; i += 1) {
    const x: unknown = v[i];
    if (x !== null && typeof x !== 'number') throw new DecodeError(`${path}[${i}]`, 'number or null', x);
  }
  return v as (number | null)[];
}

function stringRecord(v: unknown, path: string): Record<string, string> {
  const o = obj(v, path);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(o)) out[k] = typeof value === 'string' ? value : JSON.stringify(value);
  return out;
}

function decodeCaptureRef(v: unknown, path: string): CaptureRef {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    filename: str(o.filename, `${path}.filename`),
    kind: nstr(o.kind, `${path}.kind`),
    format: nstr(o.format, `${path}.format`),
    status: str(o.status, `${path}.status`),
    clock_mode: str(o.clock_mode, `${path}.clock_mode`),
    clock_note: str(o.clock_note, `${path}.clock_note`),
    time_start: nstr(o.time_start, `${path}.time_start`),
    time_end: nstr(o.time_end, `${path}.time_end`),
    on_timeline: bool(o.on_timeline, `${path}.on_timeline`),
  };
}

const trackType = oneOf(['cpu', 'offcpu', 'events', 'metric'] as const);
const trackOrigin = oneOf(['cpu', 'proc-stack'] as const);

export function decodeTrackInfo(v: unknown, path: string): TrackInfo {
  const o = obj(v, path);
  const base = { id: str(o.id, `${path}.id`), host: str(o.host, `${path}.host`), label: str(o.label, `${path}.label`) };
  switch (trackType(o.type, `${path}.type`)) {
    case 'cpu':
      return {
        ...base,
        type: 'cpu',
        event: str(o.event, `${path}.event`),
        samples: num(o.samples, `${path}.samples`),
        top: arr(o.top, `${path}.top`, (p, pp) => {
          const po = obj(p, pp);
          return { comm: str(po.comm, `${pp}.comm`), pid: nnum(po.pid, `${pp}.pid`), samples: num(po.samples, `${pp}.samples`) };
        }),
        // Absent from servers that only knew CPU samples.
        origin: o.origin === undefined ? 'cpu' : trackOrigin(o.origin, `${path}.origin`),
        state: o.state === undefined ? null : nstr(o.state, `${path}.state`),
      };
    case 'offcpu':
      return {
        ...base,
        type: 'offcpu',
        intervals: num(o.intervals, `${path}.intervals`),
        unclosed: num(o.unclosed, `${path}.unclosed`),
        states: arr(o.states, `${path}.states`, (s, sp) => {
          const so = obj(s, sp);
          return {
            state: str(so.state, `${sp}.state`),
            intervals: num(so.intervals, `${sp}.intervals`),
            total_ns: num(so.total_ns, `${sp}.total_ns`),
            max_ns: nnum(so.max_ns, `${sp}.max_ns`),
          };
        }),
      };
    case 'events':
      return {
        ...base,
        type: 'events',
        kind: str(o.kind, `${path}.kind`),
        name: nstr(o.name, `${path}.name`),
        count: num(o.count, `${path}.count`),
        names: arr(o.names, `${path}.names`, (n, np) => {
          const no = obj(n, np);
          return { name: str(no.name, `${np}.name`), count: num(no.count, `${np}.count`), max_ns: nnum(no.max_ns, `${np}.max_ns`) };
        }),
      };
    case 'metric':
      return {
        ...base,
        type: 'metric',
        name: str(o.name, `${path}.name`),
        labels: stringRecord(o.labels ?? {}, `${path}.labels`),
        unit: nstr(o.unit, `${path}.unit`),
        system: bool(o.system, `${path}.system`),
        points: num(o.points, `${path}.points`),
        min: nnum(o.min, `${path}.min`),
        max: nnum(o.max, `${path}.max`),
      };
  }
}

export function decodeTrackListing(v: unknown): TrackListing {
  const o = obj(v, 'tracks');
  return {
    incident: num(o.incident, 'tracks.incident'),
    time_start: nstr(o.time_start, 'tracks.time_start'),
    time_end: nstr(o.time_end, 'tracks.time_end'),
    hosts: arr(o.hosts, 'tracks.hosts', (h, hp) => {
      const ho = obj(h, hp);
      return {
        host: str(ho.host, `${hp}.host`),
        unaligned: bool(ho.unaligned, `${hp}.unaligned`),
        captures: arr(ho.captures, `${hp}.captures`, decodeCaptureRef),
        tracks: arr(ho.tracks, `${hp}.tracks`, decodeTrackInfo),
      };
    }),
  };
}

function decodeTrackData(v: unknown, path: string): TrackData {
  const o = obj(v, path);
  const id = str(o.id, `${path}.id`);
  const source = str(o.source, `${path}.source`);
  switch (trackType(o.type, `${path}.type`)) {
    case 'cpu':
      return {
        type: 'cpu',
        id,
        source,
        split: oneOf(['process', 'thread'] as const)(o.split, `${path}.split`),
        groups: arr(o.groups, `${path}.groups`, (g, gp) => {
          const go = obj(g, gp);
          return {
            comm: str(go.comm, `${gp}.comm`),
            pid: nnum(go.pid, `${gp}.pid`),
            other: bool(go.other, `${gp}.other`),
            total: num(go.total, `${gp}.total`),
            counts: numbers(go.counts, `${gp}.counts`),
          };
        }),
      };
    case 'offcpu':
      return {
        type: 'offcpu',
        id,
        source,
        states: arr(o.states, `${path}.states`, (s, sp) => {
          const so = obj(s, sp);
          return { state: str(so.state, `${sp}.state`), total_ns: num(so.total_ns, `${sp}.total_ns`), ns: numbers(so.ns, `${sp}.ns`) };
        }),
      };
    case 'events': {
      const b = o.buckets === null || o.buckets === undefined ? null : obj(o.buckets, `${path}.buckets`);
      return {
        type: 'events',
        id,
        source,
        mode: oneOf(['marks', 'buckets'] as const)(o.mode, `${path}.mode`),
        count: num(o.count, `${path}.count`),
        marks: arr(o.marks, `${path}.marks`, (m, mp) => {
          const mo = obj(m, mp);
          return {
            ts_us: num(mo.ts_us, `${mp}.ts_us`),
            duration_ns: nnum(mo.duration_ns, `${mp}.duration_ns`),
            name: str(mo.name, `${mp}.name`),
            pid: nnum(mo.pid, `${mp}.pid`),
            tid: nnum(mo.tid, `${mp}.tid`),
            comm: str(mo.comm, `${mp}.comm`),
          };
        }),
        buckets: b ? { count: numbers(b.count, `${path}.buckets.count`), max_ns: nullableNumbers(b.max_ns, `${path}.buckets.max_ns`) } : null,
      };
    }
    case 'metric': {
      const b = o.buckets === null || o.buckets === undefined ? null : obj(o.buckets, `${path}.buckets`);
      return {
        type: 'metric',
        id,
        source,
        unit: nstr(o.unit, `${path}.unit`),
        mode: oneOf(['points', 'buckets'] as const)(o.mode, `${path}.mode`),
        count: num(o.count, `${path}.count`),
        points: arr(o.points, `${path}.points`, (p, pp) => {
          const po = obj(p, pp);
          return { ts_us: num(po.ts_us, `${pp}.ts_us`), value: num(po.value, `${pp}.value`) };
        }),
        buckets: b
          ? {
              count: numbers(b.count, `${path}.buckets.count`),
              min: nullableNumbers(b.min, `${path}.buckets.min`),
              avg: nullableNumbers(b.avg, `${path}.buckets.avg`),
              max: nullableNumbers(b.max, `${path}.buckets.max`),
            }
          : null,
      };
    }
  }
}

export function decodeTimeline(v: unknown): TimelineResponse {
  const o = obj(v, 'timeline');
  const g = obj(o.grid, 'timeline.grid');
  return {
    start: str(o.start, 'timeline.start'),
    end: str(o.end, 'timeline.end'),
    grid: { start_us: num(g.start_us, 'grid.start_us'), width_us: num(g.width_us, 'grid.width_us'), count: num(g.count, 'grid.count') },
    tracks: arr(o.tracks, 'timeline.tracks', decodeTrackData),
    missing: arr(o.missing ?? [], 'timeline.missing', str),
    query_ms: num(o.query_ms, 'timeline.query_ms'),
  };
}

export function decodeAnnotation(v: unknown, path = 'annotation'): Annotation {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    incident_id: num(o.incident_id, `${path}.incident_id`),
    ts: str(o.ts, `${path}.ts`),
    text: str(o.text, `${path}.text`),
    host: nstr(o.host, `${path}.host`),
    created_at: str(o.created_at, `${path}.created_at`),
  };
}

export const decodeAnnotations = (v: unknown): Annotation[] => arr(v, 'annotations', decodeAnnotation);

// --- requests ---------------------------------------------------------------------------------------

export interface Scope {
  incident: number;
  captures: number[];
  hosts: string[];
}

function scopeParams(s: Scope): URLSearchParams {
  const p = new URLSearchParams({ incident: String(s.incident) });
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.hosts.length > 0) p.set('hosts', s.hosts.join(','));
  return p;
}

export const tracksUrl = (s: Scope): string => `/api/timeline/tracks?${scopeParams(s).toString()}`;

export const getTracks = (s: Scope, signal?: AbortSignal): Promise<TrackListing> => getJson(tracksUrl(s), decodeTrackListing, signal);

export interface TimelineRequest extends Scope {
  tracks: string[];
  startUs: EpochUs;
  endUs: EpochUs;
  widthPx: number;
  pid: number | null;
  tid: number | null;
  comm: string | null;
  split: 'process' | 'thread';
}

export function timelineUrl(q: TimelineRequest): string {
  const p = scopeParams(q);
  p.set('tracks', q.tracks.join(','));
  p.set('start', isoFromEpochUs(q.startUs));
  p.set('end', isoFromEpochUs(q.endUs));
  p.set('width', String(Math.max(1, Math.min(10_000, Math.round(q.widthPx)))));
  if (q.pid !== null) p.set('pid', String(q.pid));
  if (q.tid !== null) p.set('tid', String(q.tid));
  if (q.comm) p.set('comm', q.comm);
  if (q.split !== 'process') p.set('split', q.split);
  return `/api/timeline?${p.toString()}`;
}

export interface TimedTimeline {
  value: TimelineResponse;
  /** When the body had arrived (performance.now()). */
  received: number;
}

/** Measured as `timeline:fetch` and `timeline:decode`. */
export const getTimeline = (q: TimelineRequest, signal?: AbortSignal): Promise<TimedTimeline> =>
  getJsonTimed(timelineUrl(q), decodeTimeline, { fetch: 'timeline:fetch', decode: 'timeline:decode' }, signal);

export const MAX_NOTE = 2000;

export const annotationsKey = (incident: number) => ['timeline-annotations', incident] as const;

export const listAnnotations = (incident: number, signal?: AbortSignal): Promise<Annotation[]> =>
  getJson(`/api/incidents/${incident}/annotations`, decodeAnnotations, signal);

export interface NewAnnotation {
  ts: string;
  text: string;
  host: string | null;
}

export const createAnnotation = (incident: number, body: NewAnnotation): Promise<Annotation> =>
  postJson(`/api/incidents/${incident}/annotations`, body, (v) => decodeAnnotation(v));

export const deleteAnnotation = (id: number): Promise<void> => deleteRequest(`/api/annotations/${id}`);

export async function updateAnnotation(id: number, text: string): Promise<Annotation> {
  const url = `/api/annotations/${id}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'PATCH',
      headers: { ...REQUEST_HEADERS, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  } catch {
    throw new Error(`Cannot reach the Stallscope API (PATCH ${url}). Is the server running?`);
  }
  const body = await res.text();
  if (!res.ok) throw parseErrorText(res.status, res.statusText, body);
  return decodeAnnotation(JSON.parse(body) as unknown);
}
