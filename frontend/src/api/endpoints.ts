/** Typed calls to each endpoint. URLs are built here and nowhere else. */
import { decodeCapture, decodeCaptures, decodeFacets, decodeFlame, decodeIncident, decodeIncidents } from './decode';
import { getJson, getJsonTimed, postJson } from './http';
import type { Capture, Facets, FlameQuery, FlameResponse, Incident, NewIncident } from './types';

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

export function uploadUrl(incidentId: number, filename: string, host: string): string {
  const p = new URLSearchParams({ filename });
  if (host.trim()) p.set('host', host.trim());
  return `/api/incidents/${incidentId}/captures?${p.toString()}`;
}

export const getFacets = (captures: number[], signal?: AbortSignal): Promise<Facets> =>
  getJson(`/api/facets?${new URLSearchParams({ captures: captures.join(',') }).toString()}`, decodeFacets, signal);

/** Default ceiling on nodes per response; the SVG renderer stays responsive below it. */
export const MAX_NODES = 50000;

export function flameParams(q: FlameQuery): URLSearchParams {
  const p = new URLSearchParams();
  p.set('captures', q.captures.join(','));
  if (q.event) p.set('event', q.event);
  if (q.pid !== undefined) p.set('pid', String(q.pid));
  if (q.tid !== undefined) p.set('tid', String(q.tid));
  if (q.comm) p.set('comm', q.comm);
  if (q.start) p.set('start', q.start);
  if (q.end) p.set('end', q.end);
  return p;
}

export function flameUrl(q: FlameQuery): string {
  const p = flameParams(q);
  if (q.focus && q.focus.length > 0) p.set('focus', JSON.stringify(q.focus));
  p.set('max_nodes', String(MAX_NODES));
  return `/api/flame?${p.toString()}`;
}

export const foldedUrl = (q: FlameQuery): string => `/api/flame/folded?${flameParams(q).toString()}`;

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
