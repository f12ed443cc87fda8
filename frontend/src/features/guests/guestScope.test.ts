import { describe, expect, it } from 'vitest';
import type { Me } from '../auth/api';
import { guestAllowsView, guestHref, guestPlace, guestScopeText, viewOfPath } from './guestScope';

const guest = (over: Partial<Me> = {}): Me => ({
  name: 'vendor support',
  role: 'guest',
  via: 'guest',
  user_id: null,
  incident_id: 9,
  capture_ids: null,
  views: null,
  permissions: ['read'],
  expires_at: null,
  ...over,
});

const admin: Me = { ...guest(), name: 'admin', role: 'admin', via: 'session', user_id: 1, incident_id: null, permissions: ['read', 'respond', 'upload', 'admin'] };

const at = (href: string) => {
  const url = new URL(href, 'http://x.invalid');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('viewOfPath', () => {
  it('names the view of each view page, and none for other pages', () => {
    expect(viewOfPath('/flame')).toBe('flame');
    expect(viewOfPath('/timeline/')).toBe('timeline');
    expect(viewOfPath('/events')).toBe('events');
    expect(viewOfPath('/captures/4/snapshot')).toBe('snapshots');
    expect(viewOfPath('/incidents/9/config-diff')).toBe('snapshots');
    expect(viewOfPath('/incidents/9')).toBeNull();
    expect(viewOfPath('/admin/people')).toBeNull();
  });
});

describe('guestAllowsView', () => {
  it('opens every view to people and to a link that names none', () => {
    expect(guestAllowsView(admin, 'timeline')).toBe(true);
    expect(guestAllowsView(null, 'timeline')).toBe(true);
    expect(guestAllowsView(guest(), 'timeline')).toBe(true);
  });
  it('opens only the views a link names', () => {
    const me = guest({ views: ['flame'] });
    expect(guestAllowsView(me, 'flame')).toBe(true);
    expect(guestAllowsView(me, 'timeline')).toBe(false);
  });
  it('keeps the findings from a link limited to captures, which they would go beyond', () => {
    expect(guestAllowsView(guest({ capture_ids: [3] }), 'findings')).toBe(false);
    expect(guestAllowsView(guest({ capture_ids: [3], views: ['findings'] }), 'findings')).toBe(false);
    expect(guestAllowsView(guest({ capture_ids: [3] }), 'flame')).toBe(true);
    expect(guestAllowsView(guest(), 'findings')).toBe(true);
    expect(guestAllowsView(guest({ views: ['flame'] }), 'findings')).toBe(false);
    expect(guestAllowsView(admin, 'findings')).toBe(true);
  });
});

describe('guestHref', () => {
  const limited = guest({ capture_ids: [3, 5] });
  it('names the link’s captures in a view that names none', () => {
    expect(guestHref(limited, '/timeline?incident=9')).toBe('/timeline?incident=9&captures=3%2C5');
    expect(guestHref(limited, '/flame?incident=9&from=2026-01-01T00%3A00%3A00.000000Z#x')).toBe(
      '/flame?incident=9&from=2026-01-01T00%3A00%3A00.000000Z&captures=3%2C5#x',
    );
  });
  it('leaves a view that names captures, the diff’s sides included', () => {
    expect(guestHref(limited, '/flame?incident=9&captures=3')).toBe('/flame?incident=9&captures=3');
    expect(guestHref(limited, '/diff?a.captures=3&b.captures=5')).toBe('/diff?a.captures=3&b.captures=5');
  });
  it('leaves pages that are no view, and everyone but a capture-limited guest', () => {
    expect(guestHref(limited, '/incidents/9')).toBe('/incidents/9');
    expect(guestHref(limited, '/captures/3/snapshot')).toBe('/captures/3/snapshot');
    expect(guestHref(guest(), '/timeline?incident=9')).toBe('/timeline?incident=9');
    expect(guestHref(admin, '/timeline?incident=9')).toBe('/timeline?incident=9');
  });
});

describe('guestPlace', () => {
  it('shows people every page', () => {
    expect(guestPlace(admin, at('/admin/people'))).toEqual({ kind: 'show' });
    expect(guestPlace(null, at('/incidents/4'))).toEqual({ kind: 'show' });
  });
  it('sends a guest from the incident list to its incident', () => {
    expect(guestPlace(guest(), at('/'))).toEqual({ kind: 'redirect', to: '/incidents/9' });
    expect(guestPlace(guest(), at('/incidents'))).toEqual({ kind: 'redirect', to: '/incidents/9' });
  });
  it('shows its incident and the views its link opens', () => {
    expect(guestPlace(guest(), at('/incidents/9'))).toEqual({ kind: 'show' });
    expect(guestPlace(guest({ views: ['flame'] }), at('/flame?captures=3'))).toEqual({ kind: 'show' });
    expect(guestPlace(guest(), at('/incidents/9/config-diff'))).toEqual({ kind: 'show' });
  });
  it('refuses other incidents, the admin pages, tokens and the account page', () => {
    for (const path of ['/incidents/8', '/incidents/8/config-diff', '/admin/people', '/admin/audit', '/tokens', '/account']) {
      expect(guestPlace(guest(), at(path)), path).toMatchObject({ kind: 'refuse', reason: 'This guest link opens incident #9 only.' });
    }
  });
  it('refuses a view the link does not open, saying which it does', () => {
    expect(guestPlace(guest({ views: ['flame', 'threads'] }), at('/timeline?incident=9'))).toEqual({
      kind: 'refuse',
      reason: 'This guest link shows only these views: flame, threads.',
    });
  });
  it('opens a view on the link’s captures when the URL names none', () => {
    expect(guestPlace(guest({ capture_ids: [3] }), at('/timeline?incident=9'))).toEqual({ kind: 'redirect', to: '/timeline?incident=9&captures=3' });
    expect(guestPlace(guest({ capture_ids: [3] }), at('/timeline?incident=9&captures=3'))).toEqual({ kind: 'show' });
  });
});

describe('guestScopeText', () => {
  it('says what the link shows', () => {
    expect(guestScopeText(guest())).toBe('every view · every capture');
    expect(guestScopeText(guest({ views: ['flame'], capture_ids: [3] }))).toBe('views: flame · capture 3');
    expect(guestScopeText(guest({ capture_ids: [3, 5] }))).toBe('every view · captures 3, 5');
  });
});
