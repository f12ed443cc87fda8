/**
 * The timeline's API: tracks an incident offers, bucketed data for some of them, and annotations.
 * Types (the API's, generated) and URL builders live here, beside the only code that calls these
 * endpoints. Times inside track data are epoch microseconds (numbers); ISO strings only at the edges.
 */
import { apiUrl, routeQuery, type ApiUrl, type RouteQuery, type Schemas } from '../../api/contract';
import { deleteRequest, getJson, getJsonTimed, patchJson, postJson } from '../../api/http';
import { isoFromEpochUs, type EpochUs } from '../../shared/selection';

// --- track listing ----------------------------------------------------------------------------------

export type CaptureRef = Schemas['CaptureRef'];
export type CpuTrackInfo = Schemas['CpuTrack'];
export type OffCpuTrackInfo = Schemas['OffCpuTrack'];
export type EventsTrackInfo = Schemas['EventsTrack'];
export type MetricTrackInfo = Schemas['MetricTrack'];
export type TrackInfo = CpuTrackInfo | OffCpuTrackInfo | EventsTrackInfo | MetricTrackInfo;
export type HostTracks = Schemas['HostTracks'];
export type TrackListing = Schemas['TracksOut'];

// --- bucketed data ----------------------------------------------------------------------------------

export type Grid = Schemas['GridOut'];
export type CpuGroup = Schemas['CpuGroup'];
export type CpuData = Schemas['CpuData'];
export type StateSeries = Schemas['StateSeries'];
export type OffCpuData = Schemas['OffCpuData'];
export type EventMark = Schemas['EventMark'];
export type EventsData = Schemas['EventsData'];
export type MetricData = Schemas['MetricData'];
export type TrackData = CpuData | OffCpuData | EventsData | MetricData;
export type TimelineResponse = Schemas['TimelineOut'];

export type Annotation = Schemas['AnnotationOut'];

// --- requests ---------------------------------------------------------------------------------------

export interface Scope {
  incident: number;
  captures: number[];
  hosts: string[];
}

type ScopedRoute = '/api/timeline/tracks' | '/api/timeline';

function scopeParams(s: Scope) {
  const p = routeQuery<ScopedRoute>({ incident: String(s.incident) });
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.hosts.length > 0) p.set('hosts', s.hosts.join(','));
  return p;
}

export const tracksUrl = (s: Scope): ApiUrl<'/api/timeline/tracks'> => apiUrl('/api/timeline/tracks', scopeParams(s));

export const getTracks = (s: Scope, signal?: AbortSignal): Promise<TrackListing> => getJson(tracksUrl(s), signal);

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

export function timelineUrl(q: TimelineRequest): ApiUrl<'/api/timeline'> {
  const p: RouteQuery<'/api/timeline'> = scopeParams(q);
  p.set('tracks', q.tracks.join(','));
  p.set('start', isoFromEpochUs(q.startUs));
  p.set('end', isoFromEpochUs(q.endUs));
  p.set('width', String(Math.max(1, Math.min(10_000, Math.round(q.widthPx)))));
  if (q.pid !== null) p.set('pid', String(q.pid));
  if (q.tid !== null) p.set('tid', String(q.tid));
  if (q.comm) p.set('comm', q.comm);
  if (q.split !== 'process') p.set('split', q.split);
  return apiUrl('/api/timeline', p);
}

export interface TimedTimeline {
  value: TimelineResponse;
  /** When the body had arrived (performance.now()). */
  received: number;
}

/** Measured as `timeline:fetch` and `timeline:decode`. */
export const getTimeline = (q: TimelineRequest, signal?: AbortSignal): Promise<TimedTimeline> =>
  getJsonTimed(timelineUrl(q), { fetch: 'timeline:fetch', decode: 'timeline:decode' }, signal);

export const MAX_NOTE = 2000;

export const annotationsKey = (incident: number) => ['timeline-annotations', incident] as const;

export const listAnnotations = (incident: number, signal?: AbortSignal): Promise<Annotation[]> =>
  getJson(apiUrl('/api/incidents/{incident_id}/annotations', { incident_id: incident }), signal);

export type NewAnnotation = Schemas['AnnotationCreate'];

export const createAnnotation = (incident: number, body: NewAnnotation): Promise<Annotation> =>
  postJson(apiUrl('/api/incidents/{incident_id}/annotations', { incident_id: incident }), body);

export const deleteAnnotation = (id: number): Promise<void> => deleteRequest(apiUrl('/api/annotations/{annotation_id}', { annotation_id: id }));

export const updateAnnotation = (id: number, text: string): Promise<Annotation> =>
  patchJson(apiUrl('/api/annotations/{annotation_id}', { annotation_id: id }), { text });
