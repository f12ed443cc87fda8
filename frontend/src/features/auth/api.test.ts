import { describe, expect, it } from 'vitest';
import { decodeMe, decodeNewPersonalToken, decodePersonalTokens, decodeSingleSignOn, isSessionLost, singleSignOnHref, tokenState } from './api';

const ME = {
  name: 'ana',
  role: 'responder',
  via: 'session',
  user_id: 3,
  incident_id: null,
  capture_ids: null,
  views: null,
  permissions: ['read', 'respond', 'upload'],
  expires_at: null,
};

const TOKEN = {
  id: 5,
  name: 'laptop',
  prefix: 'ssp_ab12',
  created_at: '2026-03-01T10:00:00Z',
  last_used_at: null,
  expires_at: '2026-06-01T10:00:00Z',
  revoked_at: null,
};

describe('decodeMe', () => {
  it('reads a person', () => {
    expect(decodeMe(ME)).toEqual(ME);
  });
  it('reads a guest limited to one incident', () => {
    const guest = decodeMe({ ...ME, role: 'guest', via: 'guest', user_id: null, incident_id: 9, capture_ids: [1, 2], views: ['flame'], permissions: ['read'] });
    expect(guest.incident_id).toBe(9);
    expect(guest.capture_ids).toEqual([1, 2]);
    expect(guest.views).toEqual(['flame']);
  });
  it('drops permissions it does not know, rather than failing', () => {
    expect(decodeMe({ ...ME, permissions: ['read', 'retention'] }).permissions).toEqual(['read']);
  });
  it('refuses an unknown role', () => {
    expect(() => decodeMe({ ...ME, role: 'root' })).toThrow(/me\.role/);
  });
  it('refuses a body without permissions', () => {
    expect(() => decodeMe({ ...ME, permissions: undefined })).toThrow(/me\.permissions/);
  });
});

describe('personal tokens', () => {
  it('reads the list and the new secret', () => {
    expect(decodePersonalTokens([TOKEN])).toEqual([TOKEN]);
    expect(decodeNewPersonalToken({ ...TOKEN, secret: 'ssp_ab12_secret' }).secret).toBe('ssp_ab12_secret');
  });
  it('needs the secret on a new token', () => {
    expect(() => decodeNewPersonalToken(TOKEN)).toThrow(/token\.secret/);
  });
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
  it('reads whether it is offered', () => {
    expect(decodeSingleSignOn({ enabled: true, label: 'Okta' })).toEqual({ enabled: true, label: 'Okta' });
    expect(() => decodeSingleSignOn({ label: 'Okta' })).toThrow(/oidc\.enabled/);
  });
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
