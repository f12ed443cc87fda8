import { describe, expect, it } from 'vitest';
import type { Me, Permission, Role } from './api';
import { permissionsOf } from './permissions';

const me = (role: Role, permissions: Permission[]): Me => ({
  name: 'someone',
  role,
  via: role === 'guest' ? 'guest' : 'session',
  user_id: role === 'guest' ? null : 1,
  incident_id: role === 'guest' ? 7 : null,
  capture_ids: null,
  views: null,
  expires_at: null,
  permissions,
});

describe('permissionsOf', () => {
  it('a viewer reads and nothing else, and is told why', () => {
    const can = permissionsOf(me('viewer', ['read']));
    expect([can.canRead, can.canRespond, can.canUpload, can.canAdmin]).toEqual([true, false, false, false]);
    expect(can.whyNot('respond')).toBe('viewers cannot change incidents');
    expect(can.whyNot('upload')).toBe('viewers cannot upload captures');
    expect(can.whyNot('read')).toBeNull();
  });
  it('a responder changes and uploads but does not administer', () => {
    const can = permissionsOf(me('responder', ['read', 'respond', 'upload']));
    expect([can.canRead, can.canRespond, can.canUpload, can.canAdmin]).toEqual([true, true, true, false]);
    expect(can.whyNot('respond')).toBeNull();
    expect(can.whyNot('admin')).toBe('responders cannot administer the console');
  });
  it('follows the server’s permissions, not the role name', () => {
    const can = permissionsOf(me('admin', ['read', 'respond', 'upload', 'admin']));
    expect(can.canAdmin).toBe(true);
    expect(permissionsOf(me('admin', ['read'])).canAdmin).toBe(false);
  });
  it('a guest reads', () => {
    expect(permissionsOf(me('guest', ['read'])).whyNot('respond')).toBe('guests cannot change incidents');
  });
  it('nobody signed in may do nothing', () => {
    const can = permissionsOf(null);
    expect(can.canRead).toBe(false);
    expect(can.whyNot('read')).toBe('people who are not signed in cannot read incidents');
  });
});
