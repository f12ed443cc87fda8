/** Guest links: read-only links to one incident for someone without an account (a vendor). Types (the API's) and calls. */
import { apiUrl, membersOf, type Schemas } from '../../api/contract';
import { deleteRequest, getJson, postJson } from '../../api/http';
import type { Me } from '../auth/api';

export type GuestLink = Schemas['GuestLinkOut'];
export type NewGuestLink = Schemas['GuestLinkCreated'];
export type GuestLinkRequest = Schemas['GuestLinkCreate'];

/** The views a link can be limited to, as the server names them. */
export type GuestView = NonNullable<GuestLink['views']>[number];
export const GUEST_VIEWS = membersOf<GuestView>({
  timeline: true,
  flame: true,
  diff: true,
  threads: true,
  heatmap: true,
  metrics: true,
  events: true,
  snapshots: true,
  findings: true,
});

/** A link's state at `nowMs`, for its row. */
export function guestLinkState(link: GuestLink, nowMs: number): 'revoked' | 'expired' | 'active' {
  if (link.revoked_at) return 'revoked';
  if (Date.parse(link.expires_at) <= nowMs) return 'expired';
  return 'active';
}

/** The whole address to send: this console's origin and the link's path. */
export const guestLinkUrl = (origin: string, path: string): string => `${origin.replace(/\/+$/, '')}${path}`;

export const listGuestLinks = (incident: number, signal?: AbortSignal): Promise<GuestLink[]> =>
  getJson(apiUrl('/api/incidents/{incident_id}/guest-links', { incident_id: incident }), signal);

export const createGuestLink = (incident: number, body: GuestLinkRequest): Promise<NewGuestLink> =>
  postJson(apiUrl('/api/incidents/{incident_id}/guest-links', { incident_id: incident }), body);

export const revokeGuestLink = (id: number): Promise<void> => deleteRequest(apiUrl('/api/guest-links/{link_id}', { link_id: id }));

/** Open a link: the server starts a guest session (a cookie) and says what it may see. */
export const openGuestLink = (secret: string): Promise<Me> => postJson(apiUrl('/api/guest/{secret}', { secret }), undefined);
