/** Short links (`/s/<id>`) to the current view, kept by the server so they outlive restarts. */
import { obj, str } from '../api/decode';
import { postJson } from '../api/http';

export interface ShortLink {
  id: string;
  path: string;
  target: string;
}

export const decodeShortLink = (v: unknown): ShortLink => {
  const o = obj(v, 'share');
  return { id: str(o.id, 'id'), path: str(o.path, 'path'), target: str(o.target, 'target') };
};

/** The link's target: the view's path and query, without the origin (links must stay inside). */
export const currentTarget = (loc: Pick<Location, 'pathname' | 'search'>): string => `${loc.pathname}${loc.search}`;

export const createShortLink = (target: string): Promise<ShortLink> => postJson('/api/shares', { target }, decodeShortLink);
