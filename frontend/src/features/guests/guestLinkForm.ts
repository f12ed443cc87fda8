/** The guest-link form's check, before anything is sent: the same limits the server applies. */
import { GUEST_VIEWS, type GuestLinkRequest, type GuestView } from './api';

export const MAX_GUEST_DAYS = 365;
export const DEFAULT_GUEST_DAYS = 14;

export interface GuestLinkDraft {
  label: string;
  /** As typed. */
  days: string;
  /** Chosen captures; none chosen: every capture of the incident. */
  captures: ReadonlySet<number>;
  /** Chosen views; none chosen: every view. */
  views: ReadonlySet<GuestView>;
  /** The guest may download the bundle of what the link shows. */
  bundle: boolean;
}

export type GuestLinkCheck = { ok: true; request: GuestLinkRequest } | { ok: false; problem: string };

export function checkGuestLink(draft: GuestLinkDraft): GuestLinkCheck {
  const label = draft.label.trim();
  if (!label) return { ok: false, problem: 'Say who the link is for, e.g. “vendor support”.' };
  const days = Number(draft.days.trim());
  if (draft.days.trim() === '' || !Number.isFinite(days) || days <= 0 || days > MAX_GUEST_DAYS) {
    return { ok: false, problem: `The link expires after 1 to ${MAX_GUEST_DAYS} days.` };
  }
  const captures = [...draft.captures].sort((a, b) => a - b);
  // In the server's order, so the request reads the same whichever box was ticked first.
  const views = GUEST_VIEWS.filter((v) => draft.views.has(v));
  return {
    ok: true,
    request: {
      label,
      expires_in_days: days,
      capture_ids: captures.length > 0 ? captures : null,
      views: views.length > 0 ? views : null,
      bundle: draft.bundle,
    },
  };
}
