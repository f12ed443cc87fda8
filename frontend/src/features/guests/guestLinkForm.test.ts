import { describe, expect, it } from 'vitest';
import type { GuestView } from './api';
import { checkGuestLink, type GuestLinkDraft } from './guestLinkForm';

const draft = (over: Partial<GuestLinkDraft> = {}): GuestLinkDraft => ({
  label: ' vendor support ',
  days: '14',
  captures: new Set<number>(),
  views: new Set<GuestView>(),
  bundle: false,
  ...over,
});

describe('checkGuestLink', () => {
  it('sends every capture and view as null when none is ticked', () => {
    expect(checkGuestLink(draft())).toEqual({
      ok: true,
      request: { label: 'vendor support', expires_in_days: 14, capture_ids: null, views: null, bundle: false },
    });
  });
  it('sends the ticked captures sorted and the ticked views in the server’s order', () => {
    const check = checkGuestLink(draft({ captures: new Set([7, 3]), views: new Set<GuestView>(['threads', 'flame']) }));
    expect(check).toEqual({ ok: true, request: { label: 'vendor support', expires_in_days: 14, capture_ids: [3, 7], views: ['flame', 'threads'], bundle: false } });
  });
  it('sends whether the guest may download the bundle', () => {
    expect(checkGuestLink(draft({ bundle: true }))).toMatchObject({ ok: true, request: { bundle: true } });
  });
  it('wants a label', () => {
    expect(checkGuestLink(draft({ label: '  ' }))).toMatchObject({ ok: false, problem: expect.stringMatching(/who the link is for/) as unknown });
  });
  it.each(['', '0', '-3', '366', 'soon'])('refuses an expiry of %j days', (days) => {
    expect(checkGuestLink(draft({ days }))).toMatchObject({ ok: false });
  });
  it('takes a part of a day, as the server does', () => {
    expect(checkGuestLink(draft({ days: '0.5' }))).toMatchObject({ ok: true, request: { expires_in_days: 0.5 } });
  });
});
