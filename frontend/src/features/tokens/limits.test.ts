import { describe, expect, it } from 'vitest';
import { tokenLimits } from './limits';

const NOW = Date.parse('2026-03-01T00:00:00Z');

describe('tokenLimits', () => {
  it('no limits: any incident, any host, never expires', () => {
    expect(tokenLimits('', '  ', null, NOW)).toEqual({ incident_id: null, host: null, expires_at: null });
  });
  it('one incident, one host, an expiry days from now', () => {
    expect(tokenLimits(' #12 ', ' db-1 ', 30, NOW)).toEqual({ incident_id: 12, host: 'db-1', expires_at: '2026-03-31T00:00:00.000Z' });
  });
  it('says so when the incident is not an id', () => {
    expect(tokenLimits('twelve', '', null, NOW)).toBe('“twelve” is not an incident id');
    expect(tokenLimits('0', '', null, NOW)).toBe('“0” is not an incident id');
  });
});
