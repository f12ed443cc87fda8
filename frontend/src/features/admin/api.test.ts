import { describe, expect, it } from 'vitest';
import { decodeAuditEntries, decodeUsers } from './api';

const USER = {
  id: 2,
  name: 'viewer1',
  role: 'viewer',
  has_password: true,
  sso: false,
  email: null,
  created_at: '2026-03-01T10:00:00Z',
  last_login_at: null,
  disabled_at: null,
};

describe('decodeUsers', () => {
  it('reads accounts', () => {
    expect(decodeUsers([USER])).toEqual([USER]);
  });
  it('an account is never a guest', () => {
    expect(() => decodeUsers([{ ...USER, role: 'guest' }])).toThrow(/users\[0\]\.role/);
  });
});

describe('decodeAuditEntries', () => {
  const entry = {
    id: 41,
    at: '2026-03-01T10:00:00Z',
    actor_kind: 'admin',
    actor_id: 1,
    actor_name: 'admin',
    action: 'create',
    object_type: 'user',
    object_id: '2',
    incident_id: null,
    detail: { name: 'viewer1', role: 'viewer' },
    address: '127.0.0.1',
  };
  it('reads entries', () => {
    expect(decodeAuditEntries([entry])).toEqual([entry]);
  });
  it('takes a numeric object id as text, and a missing detail as empty', () => {
    const [e] = decodeAuditEntries([{ ...entry, object_id: 2, detail: null, address: null, actor_id: null }]);
    expect(e?.object_id).toBe('2');
    expect(e?.detail).toEqual({});
  });
});
