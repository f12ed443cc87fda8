/**
 * What a guest link's holder sees of the console, as pure functions of `Me` and a URL: its one
 * incident, the views the link names, and (when the link names captures) views opened on those
 * captures, since the server answers 404 to a capture-limited guest whose query names none.
 *
 * The server enforces all of it; this keeps the console from offering what would only be refused.
 */
import type { Me } from '../auth/api';
import type { GuestView } from './api';

/** The page a guest is sent to when its session ends under it (revoked or expired link). */
export const GUEST_ENDED_PATH = '/g';

/** Query keys that name captures: the shared selection's, and the diff's two sides. */
const CAPTURE_KEYS = ['captures', 'a.captures', 'b.captures'] as const;

/** Which guest view a console path belongs to; null for paths that are no view (the incident page). */
export function viewOfPath(pathname: string): GuestView | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  switch (path) {
    case '/timeline':
      return 'timeline';
    case '/flame':
      return 'flame';
    case '/diff':
      return 'diff';
    case '/threads':
      return 'threads';
    case '/heatmap':
      return 'heatmap';
    case '/metrics':
      return 'metrics';
    case '/events':
      return 'events';
  }
  if (/^\/captures\/\d+\/snapshot$/.test(path) || /^\/incidents\/\d+\/config-diff$/.test(path)) return 'snapshots';
  return null;
}

export const isGuest = (me: Me | null | undefined): me is Me & { incident_id: number } =>
  me?.role === 'guest' && me.incident_id !== null;

/** Whether the guest's link opens `view` (everyone else: always). */
export function guestAllowsView(me: Me | null | undefined, view: GuestView): boolean {
  if (!isGuest(me)) return true;
  // An incident's findings cover all its captures: not for a link limited to some.
  if (view === 'findings' && me.capture_ids !== null) return false;
  return me.views === null || me.views.includes(view);
}

/**
 * `href` (a console path with its query) as a capture-limited guest must open it: a view whose
 * query names no captures gets the link's captures. Anything else is returned unchanged.
 */
export function guestHref(me: Me | null | undefined, href: string): string {
  if (!isGuest(me) || me.capture_ids === null || me.capture_ids.length === 0) return href;
  const url = new URL(href, 'http://console.invalid');
  const view = viewOfPath(url.pathname);
  if (view === null || view === 'snapshots') return href;
  if (CAPTURE_KEYS.some((k) => (url.searchParams.get(k) ?? '').trim() !== '')) return href;
  url.searchParams.set('captures', me.capture_ids.join(','));
  return `${url.pathname}${url.search}${url.hash}`;
}

export type GuestPlace =
  /** Show the page as it is. */
  | { kind: 'show' }
  /** Replace the URL with this one (the guest's home, or a view with its captures named). */
  | { kind: 'redirect'; to: string }
  /** Say why not, instead of the page. */
  | { kind: 'refuse'; reason: string };

/** Where a guest may go: its incident's page and the views its link opens; the rest is refused. */
export function guestPlace(me: Me | null | undefined, location: { pathname: string; search: string; hash: string }): GuestPlace {
  if (!isGuest(me)) return { kind: 'show' };
  const home = `/incidents/${me.incident_id}`;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/incidents') return { kind: 'redirect', to: home };
  if (path === home) return { kind: 'show' };
  const view = viewOfPath(path);
  if (view === null) return { kind: 'refuse', reason: `This guest link opens incident #${me.incident_id} only.` };
  if (!guestAllowsView(me, view)) {
    return { kind: 'refuse', reason: `This guest link shows only these views: ${(me.views ?? []).join(', ')}.` };
  }
  if (view === 'snapshots' && path.startsWith('/incidents/') && path !== `${home}/config-diff`) {
    return { kind: 'refuse', reason: `This guest link opens incident #${me.incident_id} only.` };
  }
  const here = `${path}${location.search}${location.hash}`;
  const scoped = guestHref(me, here);
  return scoped === here ? { kind: 'show' } : { kind: 'redirect', to: scoped };
}

/** "flame, timeline" or "every view"; "captures 3, 4" or "every capture": what the banner says the link shows. */
export function guestScopeText(me: Me): string {
  const views = me.views === null ? 'every view' : `views: ${me.views.join(', ')}`;
  const captures = me.capture_ids === null ? 'every capture' : `capture${me.capture_ids.length === 1 ? '' : 's'} ${me.capture_ids.join(', ')}`;
  return `${views} · ${captures}`;
}
