/** Typed calls to each endpoint. URLs are built here and nowhere else. */
import { apiUrl, routeQuery, type ApiUrl, type RouteQuery } from './contract';
import { decodeFlame } from './decode';
import { deleteRequest, getJson, getJsonTimed, postJson } from './http';
import { isoFromEpochUs } from '../shared/selection';
import type {
  ApiToken,
  ApiTokenLimits,
  Capture,
  CaptureDocument,
  EventsPage,
  EventsQuery,
  Facets,
  FlameQuery,
  FlameResponse,
  Incident,
  MetricPoints,
  MetricSeries,
  NewApiToken,
  NewIncident,
  StackFrame,
} from './types';

export const listIncidents = (signal?: AbortSignal): Promise<Incident[]> =>
  getJson(apiUrl('/api/incidents'), signal);

export const getIncident = (id: number, signal?: AbortSignal): Promise<Incident> =>
  getJson(apiUrl('/api/incidents/{incident_id}', { incident_id: id }), signal);

export const createIncident = (body: NewIncident): Promise<Incident> =>
  postJson(apiUrl('/api/incidents'), body);

export const listCaptures = (incidentId: number, signal?: AbortSignal): Promise<Capture[]> =>
  getJson(apiUrl('/api/incidents/{incident_id}/captures', { incident_id: incidentId }), signal);

export const reparseCapture = (id: number): Promise<Capture> =>
  postJson(apiUrl('/api/captures/{capture_id}/reparse', { capture_id: id }), undefined);

export const rawCaptureUrl = (id: number): string => apiUrl('/api/captures/{capture_id}/raw', { capture_id: id });

/** The incident's postmortem download: Markdown, one self-contained HTML page, or both with the images in a zip. */
export type PostmortemFormat = 'md' | 'html' | 'zip';
export const postmortemUrl = (incidentId: number, format: PostmortemFormat): string => apiUrl(`/api/incidents/{incident_id}/postmortem.${format}`, { incident_id: incidentId });

export type UploadUrl = ApiUrl<'/api/incidents/{incident_id}/captures'>;

export function uploadUrl(incidentId: number, filename: string, host: string): UploadUrl {
  const p = routeQuery<'/api/incidents/{incident_id}/captures', 'post'>({ filename });
  if (host.trim()) p.set('host', host.trim());
  return apiUrl('/api/incidents/{incident_id}/captures', { incident_id: incidentId }, p);
}

/** Place a capture nothing aligned on the wall clock: its first record at `start` (UTC ISO); null forgets it. */
export const setCaptureStart = (id: number, start: string | null): Promise<Capture> =>
  postJson(apiUrl('/api/captures/{capture_id}/start', { capture_id: id }), { start });

/** The capture's whole time shift, e.g. "+2.5s", "-300ms", "0"; the capture is re-timed (poll it). */
export const shiftCapture = (id: number, shift: string): Promise<Capture> =>
  postJson(apiUrl('/api/captures/{capture_id}/shift', { capture_id: id }), { shift });

export function facetsUrl(captures: number[], source?: string, state?: string): ApiUrl<'/api/facets'> {
  const p = routeQuery<'/api/facets'>({ captures: captures.join(',') });
  if (source) p.set('source', source);
  if (state) p.set('state', state);
  return apiUrl('/api/facets', p);
}

export const getFacets = (captures: number[], signal?: AbortSignal, source?: string, state?: string): Promise<Facets> =>
  getJson(facetsUrl(captures, source, state), signal);

export function eventsUrl(q: EventsQuery): ApiUrl<'/api/events'> {
  const p = routeQuery<'/api/events'>({ captures: q.captures.join(',') });
  if (q.kind) p.set('kind', q.kind);
  if (q.name) p.set('name', q.name);
  p.set('sort', q.sort);
  p.set('descending', String(q.descending));
  p.set('limit', String(q.limit));
  p.set('offset', String(q.offset));
  return apiUrl('/api/events', p);
}

export const listEvents = (q: EventsQuery, signal?: AbortSignal): Promise<EventsPage> => getJson(eventsUrl(q), signal);

export const getStack = (id: number, signal?: AbortSignal): Promise<StackFrame[]> => getJson(apiUrl('/api/stacks/{stack_id}', { stack_id: id }), signal);

export const listSeries = (captures: number[], signal?: AbortSignal): Promise<MetricSeries[]> =>
  getJson(apiUrl('/api/metrics/series', routeQuery<'/api/metrics/series'>({ captures: captures.join(',') })), signal);

type PointsRoute = '/api/metrics/series/{series_id}/points';

function seriesPointsQuery(buckets: number, start?: string, end?: string) {
  const p = routeQuery<PointsRoute>({ buckets: String(Math.max(1, Math.round(buckets))) });
  if (start) p.set('start', start);
  if (end) p.set('end', end);
  return p;
}

export const seriesPointsUrl = (id: number, buckets: number, start?: string, end?: string): ApiUrl<PointsRoute> =>
  apiUrl('/api/metrics/series/{series_id}/points', { series_id: id }, seriesPointsQuery(buckets, start, end));

export const getSeriesPoints = (id: number, buckets: number, signal?: AbortSignal): Promise<MetricPoints> =>
  getJson(seriesPointsUrl(id, buckets), signal);

/** Every metric series of every capture of an incident. */
export const listIncidentSeries = (incident: number, signal?: AbortSignal): Promise<MetricSeries[]> =>
  getJson(apiUrl('/api/metrics/series', routeQuery<'/api/metrics/series'>({ incident: String(incident) })), signal);

export interface SeriesPointsQuery {
  buckets: number;
  /** ISO 8601; the bucket grid starts here. Series asked with the same start, end and buckets share a grid. */
  start?: string;
  end?: string;
  /** true: increase per second; false: values as stored; absent: the server's choice (rate for counters). */
  rate?: boolean;
}

export function seriesPointsQueryUrl(id: number, q: SeriesPointsQuery): ApiUrl<PointsRoute> {
  const p = seriesPointsQuery(q.buckets, q.start, q.end);
  if (q.rate !== undefined) p.set('rate', String(q.rate));
  return apiUrl('/api/metrics/series/{series_id}/points', { series_id: id }, p);
}

export const querySeriesPoints = (id: number, q: SeriesPointsQuery, signal?: AbortSignal): Promise<MetricPoints> =>
  getJson(seriesPointsQueryUrl(id, q), signal);

export const getDocuments = (captureId: number, signal?: AbortSignal): Promise<CaptureDocument[]> =>
  getJson(apiUrl('/api/captures/{capture_id}/documents', { capture_id: captureId }), signal);

export const getCapture = (id: number, signal?: AbortSignal): Promise<Capture> => getJson(apiUrl('/api/captures/{capture_id}', { capture_id: id }), signal);

export const listTokens = (signal?: AbortSignal): Promise<ApiToken[]> => getJson(apiUrl('/api/tokens'), signal);

export const createToken = (name: string, limits?: ApiTokenLimits): Promise<NewApiToken> =>
  postJson(apiUrl('/api/tokens'), { name, ...limits });

export const revokeToken = (id: number): Promise<void> => deleteRequest(apiUrl('/api/tokens/{token_id}', { token_id: id }));

/** Default ceiling on nodes per response; the SVG renderer stays responsive below it. */
export const MAX_NODES = 50000;

/** The flame graph's routes: the graph, the folded download and the exports of the same view. */
type FlameRoute = '/api/flame' | '/api/flame/folded' | '/api/flame/export';

/** The parameters every flame-graph route takes. */
export function flameParams(q: FlameQuery): RouteQuery<FlameRoute> {
  const p = routeQuery<FlameRoute>();
  p.set('captures', q.captures.join(','));
  if (q.source) p.set('source', q.source);
  if (q.state) p.set('state', q.state);
  if (q.event) p.set('event', q.event);
  if (q.pid !== undefined) p.set('pid', String(q.pid));
  if (q.tid !== undefined) p.set('tid', String(q.tid));
  if (q.comm) p.set('comm', q.comm);
  if (q.start) p.set('start', q.start);
  if (q.end) p.set('end', q.end);
  if (q.within) p.set('within', q.within);
  return p;
}

export function flameUrl(q: FlameQuery): ApiUrl<'/api/flame'> {
  const p: RouteQuery<'/api/flame'> = flameParams(q);
  if (q.focus && q.focus.length > 0) p.set('focus', JSON.stringify(q.focus));
  p.set('max_nodes', String(MAX_NODES));
  return apiUrl('/api/flame', p);
}

export const foldedUrl = (q: FlameQuery): string => apiUrl('/api/flame/folded', flameParams(q));

/** Profile formats of the flame-graph view that other tools read. */
export type ProfileFormat = 'pprof' | 'speedscope';

/** The view the folded download gives, as pprof (gzipped protobuf: go tool pprof, Pyroscope, Parca) or speedscope JSON. */
export function flameExportUrl(q: FlameQuery, format: ProfileFormat): string {
  const p: RouteQuery<'/api/flame/export'> = flameParams(q);
  p.set('format', format);
  return apiUrl('/api/flame/export', p);
}

/** A timeline selection to export: captures and hosts empty for all of them, a null bound for open. */
export interface TraceSelection {
  incident: number;
  captures: number[];
  hosts: string[];
  fromUs: number | null;
  toUs: number | null;
}

/** The selection's samples and events as Chrome trace-event JSON, for Perfetto UI and chrome://tracing. */
export function chromeTraceUrl(s: TraceSelection): string {
  const p = routeQuery<'/api/timeline/export'>({ incident: String(s.incident), format: 'chrome' });
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.hosts.length > 0) p.set('hosts', s.hosts.join(','));
  if (s.fromUs !== null) p.set('start', isoFromEpochUs(s.fromUs));
  if (s.toUs !== null) p.set('end', isoFromEpochUs(s.toUs));
  return apiUrl('/api/timeline/export', p);
}

const arrivals = new WeakMap<FlameResponse, number>();

/** When a flame response's body had arrived (a performance.now() time), if it came from getFlame. */
export const flameArrivedAt = (r: FlameResponse): number | undefined => arrivals.get(r);

/** Measured as `flame:fetch` and `flame:decode`, or `flame:focus-fetch` and `flame:focus-decode` for a focused subtree. */
export async function getFlame(q: FlameQuery, signal?: AbortSignal): Promise<FlameResponse> {
  const focused = q.focus !== undefined && q.focus.length > 0;
  const timing = focused ? { fetch: 'flame:focus-fetch', decode: 'flame:focus-decode' } : { fetch: 'flame:fetch', decode: 'flame:decode' };
  const { value, received } = await getJsonTimed(flameUrl(q), timing, signal, decodeFlame);
  arrivals.set(value, received);
  return value;
}
