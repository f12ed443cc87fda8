import { describe, expect, it } from 'vitest';
import { isSessionLost, singleSignOnHref, tokenState, type PersonalToken } from './api';

const TOKEN: PersonalToken = {
  id: 5,
  name: 'laptop',
  prefix: 'ssp_ab12',
  created_at: '2026-03-01T10:00:00Z',
  last_used_at: null,
  expires_at: '2026-06-01T10:00:00Z',
  revoked_at: null,
};

describe('personal tokens', () => {
  it('tells active, expired and revoked apart', () => {
    const before = Date.parse('2026-05-01T00:00:00Z');
    const after = Date.parse('2026-07-01T00:00:00Z');
    expect(tokenState(TOKEN, before)).toBe('active');
    expect(tokenState(TOKEN, after)).toBe('expired');
    expect(tokenState({ ...TOKEN, expires_at: null }, after)).toBe('active');
    expect(tokenState({ ...TOKEN, revoked_at: '2026-04-01T00:00:00Z' }, before)).toBe('revoked');
  });
});

describe('single sign-on', () => {
  it('passes where to land on to the provider round trip', () => {
    expect(singleSignOnHref('/timeline?incident=3')).toBe('/api/auth/oidc/login?next=%2Ftimeline%3Fincident%3D3');
  });
});

describe('isSessionLost', () => {
  it('a 401 from an ordinary route means signing in again', () => {
    expect(isSessionLost('/api/incidents')).toBe(true);
    expect(isSessionLost('/api/auth/me')).toBe(true);
    expect(isSessionLost('/api/auth/tokens')).toBe(true);
  });
  it('a 401 from a password check means a wrong password', () => {
    expect(isSessionLost('/api/auth/login')).toBe(false);
    expect(isSessionLost('/api/auth/password')).toBe(false);
  });
});
