import { describe, expect, it } from 'vitest';
import { decodeGuestLinks, decodeNewGuestLink, guestLinkState, guestLinkUrl } from './api';

const LINK = {
  id: 4,
  incident_id: 9,
  label: 'vendor support',
  prefix: 'ssg_ab12',
  capture_ids: [3],
  views: ['flame'],
  created_by: 1,
  created_at: '2026-03-01T10:00:00Z',
  expires_at: '2026-03-15T10:00:00Z',
  revoked_at: null,
  last_used_at: null,
  uses: 0,
  bundle: false,
};

describe('guest link decoders', () => {
  it('read the list, with "every capture and view" as null', () => {
    expect(decodeGuestLinks([LINK, { ...LINK, id: 5, capture_ids: null, views: null }])).toEqual([LINK, { ...LINK, id: 5, capture_ids: null, views: null }]);
  });
  it('need the secret and the path on a new link', () => {
    const made = decodeNewGuestLink({ ...LINK, secret: 'ssg_ab12_x', path: '/g/ssg_ab12_x' });
    expect(made.path).toBe('/g/ssg_ab12_x');
    expect(() => decodeNewGuestLink({ ...LINK, path: '/g/x' })).toThrow(/link\.secret/);
  });
  it('refuse a link without its use count', () => {
    expect(() => decodeGuestLinks([{ ...LINK, uses: undefined }])).toThrow(/links\[0\]\.uses|uses/);
  });
});

describe('guestLinkState', () => {
  it('tells active, expired and revoked apart', () => {
    expect(guestLinkState(LINK, Date.parse('2026-03-10T00:00:00Z'))).toBe('active');
    expect(guestLinkState(LINK, Date.parse('2026-03-15T10:00:00Z'))).toBe('expired');
    expect(guestLinkState({ ...LINK, revoked_at: '2026-03-02T00:00:00Z' }, Date.parse('2026-03-10T00:00:00Z'))).toBe('revoked');
  });
});

describe('guestLinkUrl', () => {
  it('puts the path after the console origin', () => {
    expect(guestLinkUrl('https://stallscope.example', '/g/ssg_x')).toBe('https://stallscope.example/g/ssg_x');
    expect(guestLinkUrl('http://10.0.0.5:8000/', '/g/ssg_x')).toBe('http://10.0.0.5:8000/g/ssg_x');
  });
});
