import { describe, expect, it } from 'vitest';
import { guestLinkState, guestLinkUrl, type GuestLink } from './api';

const LINK: GuestLink = {
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
