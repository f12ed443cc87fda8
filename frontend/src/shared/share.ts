/** Short links (`/s/<id>`) to the current view, kept by the server so they outlive restarts. */
import { apiUrl, type Schemas } from '../api/contract';
import { getJson, postJson } from '../api/http';

export type ShortLink = Schemas['ShareOut'];

/** The link's target: the view's path and query, without the origin (links must stay inside). */
export const currentTarget = (loc: Pick<Location, 'pathname' | 'search'>): string => `${loc.pathname}${loc.search}`;

export const createShortLink = (target: string): Promise<ShortLink> => postJson(apiUrl('/api/shares'), { target });

/** Where a short link goes; asked once signed in (the link's page does not say). */
export const getShortLink = (id: string, signal?: AbortSignal): Promise<ShortLink> => getJson(apiUrl('/api/shares/{link_id}', { link_id: id }), signal);
