/** Typed calls to each endpoint. URLs are built here and nowhere else. */
import {
  decodeCapture,
  decodeCaptures,
  decodeDocuments,
  decodeEventsPage,
  decodeFacets,
  decodeFlame,
  decodeIncident,
  decodeIncidents,
  decodeMetricPoints,
  decodeNewToken,
  decodeSeriesList,
  decodeStack,
  decodeTokens,
} from './decode';
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
  getJson('/api/incidents', decodeIncidents, signal);

export const getIncident = (id: number, signal?: AbortSignal): Promise<Incident> =>
  getJson(`/api/incidents/${id}`, (v) => decodeIncident(v), signal);

export const createIncident = (body: NewIncident): Promise<Incident> =>
  postJson('/api/incidents', body, (v) => decodeIncident(v));

export const listCaptures = (incidentId: number, signal?: AbortSignal): Promise<Capture[]> =>
  getJson(`/api/incidents/${incidentId}/captures`, decodeCaptures, signal);

export const reparseCapture = (id: number): Promise<Capture> =>
  postJson(`/api/captures/${id}/reparse`, undefined, (v) => decodeCapture(v));

export const rawCaptureUrl = (id: number): string => `/api/captures/${id}/raw`;

/** The incident's postmortem download: Markdown, one self-contained HTML page, or both with the images in a zip. */
export type PostmortemFormat = 'md' | 'html' | 'zip';
export const postmortemUrl = (incidentId: number, format: PostmortemFormat): string => `/api/incidents/${incidentId}/postmortem.${format}`;

export function uploadUrl(incidentId: number, filename: string, host: string): string {
  const p = new URLSearchParams({ filename });
  if (host.trim()) p.set('host', host.trim());
  return `/api/incidents/${incidentId}/captures?${p.toString()}`;
}

/** Place a capture nothing aligned on the wall clock: its first record at `start` (UTC ISO); null forgets it. */
export const setCaptureStart = (id: number, start: string | null): Promise<Capture> =>
  postJson(`/api/captures/${id}/start`, { start }, (v) => decodeCapture(v));

/** The capture's whole time shift, e.g. "+2.5s", "-300ms", "0"; the capture is re-timed (poll it). */
export const shiftCapture = (id: number, shift: string): Promise<Capture> =>
  postJson(`/api/captures/${id}/shift`, { shift }, (v) => decodeCapture(v));

export function facetsUrl(captures: number[], source?: string, state?: string): string {
  const p = new URLSearchParams({ captures: captures.join(',') });
  if (source) p.set('source', source);
  if (state) p.set('state', state);
  return `/api/facets?${p.toString()}`;
}

export const getFacets = (captures: number[], signal?: AbortSignal, source?: string, state?: string): Promise<Facets> =>
  getJson(facetsUrl(captures, source, state), decodeFacets, signal);

export function eventsUrl(q: EventsQuery): string {
  const p = new URLSearchParams({ captures: q.captures.join(',') });
  if (q.kind) p.set('kind', q.kind);
  if (q.name) p.set('name', q.name);
  p.set('sort', q.sort);
  p.set('descending', String(q.descending));
  p.set('limit', String(q.limit));
  p.set('offset', String(q.offset));
  return `/api/events?${p.toString()}`;
}

export const listEvents = (q: EventsQuery, signal?: AbortSignal): Promise<EventsPage> => getJson(eventsUrl(q), decodeEventsPage, signal);

export const getStack = (id: number, signal?: AbortSignal): Promise<StackFrame[]> => getJson(`/api/stacks/${id}`, decodeStack, signal);

export const listSeries = (captures: number[], signal?: AbortSignal): Promise<MetricSeries[]> =>
  getJson(`/api/metrics/series?${new URLSearchParams({ captures: captures.join(',') }).toString()}`, decodeSeriesList, signal);

export function seriesPointsUrl(id: number, buckets: number, start?: string, end?: string): string {
  const p = new URLSearchParams({ buckets: String(Math.max(1, Math.round(buckets))) });
  if (start) p.set('start', start);
  if (end) p.set('end', end);
  return `/api/metrics/series/${id}/points?${p.toString()}`;
}

export const getSeriesPoints = (id: number, buckets: number, signal?: AbortSignal): Promise<MetricPoints> =>
  getJson(seriesPointsUrl(id, buckets), decodeMetricPoints, signal);

/** Every metric series of every capture of an incident. */
export const listIncidentSeries = (incident: number, signal?: AbortSignal): Promise<MetricSeries[]> =>
  getJson(`/api/metrics/series?${new URLSearchParams({ incident: String(incident) }).toString()}`, decodeSeriesList, signal);

export interface SeriesPointsQuery {
  buckets: number;
  /** ISO 8601; the bucket grid starts here. Series asked with the same start, end and buckets share a grid. */
  start?: string;
  end?: string;
  /** true: increase per second; false: values as stored; absent: the server's choice (rate for counters). */
  rate?: boolean;
}

export function seriesPointsQueryUrl(id: number, q: SeriesPointsQuery): string {
  const base = seriesPointsUrl(id, q.buckets, q.start, q.end);
  return q.rate === undefined ? base : `${base}&rate=${String(q.rate)}`;
}

export const querySeriesPoints = (id: number, q: SeriesPointsQuery, signal?: AbortSignal): Promise<MetricPoints> =>
  getJson(seriesPointsQueryUrl(id, q), decodeMetricPoints, signal);

export const getDocuments = (captureId: number, signal?: AbortSignal): Promise<CaptureDocument[]> =>
  getJson(`/api/captures/${captureId}/documents`, decodeDocuments, signal);

export const getCapture = (id: number, signal?: AbortSignal): Promise<Capture> => getJson(`/api/captures/${id}`, (v) => decodeCapture(v), signal);

export const listTokens = (signal?: AbortSignal): Promise<ApiToken[]> => getJson('/api/tokens', decodeTokens, signal);

export const createToken = (name: string, limits?: ApiTokenLimits): Promise<NewApiToken> =>
  postJson('/api/tokens', { name, ...limits }, decodeNewToken);

export const revokeToken = (id: number): Promise<void> => deleteRequest(`/api/tokens/${id}`);

/** Default ceiling on nodes per response; the SVG renderer stays responsive below it. */
export const MAX_NODES = 50000;

export function flameParams(q: FlameQuery): URLSearchParams {
  const p = new URLSearchParams();
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

export function flameUrl(q: FlameQuery): string {
  const p = flameParams(q);
  if (q.focus && q.focus.length > 0) p.set('focus', JSON.stringify(q.focus));
  p.set('max_nodes', String(MAX_NODES));
  return `/api/flame?${p.toString()}`;
}

export const foldedUrl = (q: FlameQuery): string => `/api/flame/folded?${flameParams(q).toString()}`;

/** Profile formats of the flame-graph view that other tools read. */
export type ProfileFormat = 'pprof' | 'speedscope';

/** The view the folded download gives, as pprof (gzipped protobuf: go tool pprof, Pyroscope, Parca) or speedscope JSON. */
export function flameExportUrl(q: FlameQuery, format: ProfileFormat): string {
  const p = flameParams(q);
  p.set('format', format);
  return `/api/flame/export?${p.toString()}`;
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
  const p = new URLSearchParams({ incident: String(s.incident), format: 'chrome' });
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.hosts.length > 0) p.set('hosts', s.hosts.join(','));
  if (s.fromUs !== null) p.set('start', isoFromEpochUs(s.fromUs));
  if (s.toUs !== null) p.set('end', isoFromEpochUs(s.toUs));
  return `/api/timeline/export?${p.toString()}`;
}

const arrivals = new WeakMap<FlameResponse, number>();

/** When a flame response's body had arrived (a performance.now() time), if it came from getFlame. */
export const flameArrivedAt = (r: FlameResponse): number | undefined => arrivals.get(r);

/** Measured as `flame:fetch` and `flame:decode`, or `flame:focus-fetch` and `flame:focus-decode` for a focused subtree. */
export async function getFlame(q: FlameQuery, signal?: AbortSignal): Promise<FlameResponse> {
  const focused = q.focus !== undefined && q.focus.length > 0;
  const timing = focused ? { fetch: 'flame:focus-fetch', decode: 'flame:focus-decode' } : { fetch: 'flame:fetch', decode: 'flame:decode' };
  const { value, received } = await getJsonTimed(flameUrl(q), decodeFlame, timing, signal);
  arrivals.set(value, received);
  return value;
}
