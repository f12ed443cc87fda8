/** Guest links: read-only links to one incident for someone without an account (a vendor). Types, decoders, calls. */
import { arr, nullable, num, obj, str } from '../../api/decode';
import { deleteRequest, getJson, postJson } from '../../api/http';
import { decodeMe, type Me } from '../auth/api';

/** The views a link can be limited to, as the server names them. */
export const GUEST_VIEWS = ['timeline', 'flame', 'diff', 'threads', 'heatmap', 'metrics', 'events', 'snapshots', 'findings'] as const;
export type GuestView = (typeof GUEST_VIEWS)[number];

export interface GuestLink {
  id: number;
  incident_id: number;
  label: string;
  /** The start of the secret, to tell links apart; the secret itself is never listed. */
  prefix: string;
  /** null: every capture of the incident. */
  capture_ids: number[] | null;
  /** null: every view. */
  views: string[] | null;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  uses: number;
  /** The guest may download the bundle of what the link shows. */
  bundle: boolean;
}

export interface NewGuestLink extends GuestLink {
  /** Shown once, at creation. */
  secret: string;
  /** `/g/<secret>`, to put after the console's origin. */
  path: string;
}

export interface GuestLinkRequest {
  label: string;
  expires_in_days: number;
  capture_ids: number[] | null;
  views: GuestView[] | null;
  bundle: boolean;
}

const nstr = nullable(str);
const nnum = nullable(num);
const ids = (v: unknown, path: string): number[] | null => (v === null || v === undefined ? null : arr(v, path, num));
const names = (v: unknown, path: string): string[] | null => (v === null || v === undefined ? null : arr(v, path, str));

export function decodeGuestLink(v: unknown, path = 'link'): GuestLink {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    incident_id: num(o.incident_id, `${path}.incident_id`),
    label: str(o.label, `${path}.label`),
    prefix: str(o.prefix, `${path}.prefix`),
    capture_ids: ids(o.capture_ids, `${path}.capture_ids`),
    views: names(o.views, `${path}.views`),
    created_by: nnum(o.created_by, `${path}.created_by`),
    created_at: str(o.created_at, `${path}.created_at`),
    expires_at: str(o.expires_at, `${path}.expires_at`),
    revoked_at: nstr(o.revoked_at, `${path}.revoked_at`),
    last_used_at: nstr(o.last_used_at, `${path}.last_used_at`),
    bundle: o.bundle === true,
    uses: num(o.uses, `${path}.uses`),
  };
}

export const decodeGuestLinks = (v: unknown): GuestLink[] => arr(v, 'links', decodeGuestLink);

export function decodeNewGuestLink(v: unknown): NewGuestLink {
  const o = obj(v, 'link');
  return { ...decodeGuestLink(v), secret: str(o.secret, 'link.secret'), path: str(o.path, 'link.path') };
}

/** A link's state at `nowMs`, for its row. */
export function guestLinkState(link: GuestLink, nowMs: number): 'revoked' | 'expired' | 'active' {
  if (link.revoked_at) return 'revoked';
  if (Date.parse(link.expires_at) <= nowMs) return 'expired';
  return 'active';
}

/** The whole address to send: this console's origin and the link's path. */
export const guestLinkUrl = (origin: string, path: string): string => `${origin.replace(/\/+$/, '')}${path}`;

export const listGuestLinks = (incident: number, signal?: AbortSignal): Promise<GuestLink[]> =>
  getJson(`/api/incidents/${incident}/guest-links`, decodeGuestLinks, signal);

export const createGuestLink = (incident: number, body: GuestLinkRequest): Promise<NewGuestLink> =>
  postJson(`/api/incidents/${incident}/guest-links`, body, decodeNewGuestLink);

export const revokeGuestLink = (id: number): Promise<void> => deleteRequest(`/api/guest-links/${id}`);

/** Open a link: the server starts a guest session (a cookie) and says what it may see. */
export const openGuestLink = (secret: string): Promise<Me> => postJson(`/api/guest/${encodeURIComponent(secret)}`, undefined, decodeMe);
