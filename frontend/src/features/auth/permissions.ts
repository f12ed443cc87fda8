/** What the signed-in principal may do, from `Me`, and why not when it may not: one mapping for every control. */
import type { Me, Permission, Role } from './api';

export interface Permissions {
  /** See incidents and every view of them. */
  canRead: boolean;
  /** Create and edit incidents, annotate, share, export (raw download), judge findings, collector tokens. */
  canRespond: boolean;
  /** Send captures. */
  canUpload: boolean;
  /** People, every token, the audit log. */
  canAdmin: boolean;
  /** Download the incident's bundle: responders, and a guest whose link allows it. */
  canExport: boolean;
  /** Why a control needing `permission` is disabled (for its title); null when it is allowed. */
  whyNot: (permission: Permission) => string | null;
}

const PLURAL: Record<Role, string> = { viewer: 'viewers', responder: 'responders', admin: 'admins', guest: 'guests' };

const WHAT: Record<Permission, string> = {
  read: 'read incidents',
  respond: 'change incidents',
  upload: 'upload captures',
  admin: 'administer the console',
  export: "download the incident's bundle",
};

export function permissionsOf(me: Me | null | undefined): Permissions {
  const held = new Set<Permission>(me?.permissions ?? []);
  const who = me ? PLURAL[me.role] : 'people who are not signed in';
  return {
    canRead: held.has('read'),
    canRespond: held.has('respond'),
    canUpload: held.has('upload'),
    canAdmin: held.has('admin'),
    canExport: held.has('export'),
    whyNot: (permission) => (held.has(permission) ? null : `${who} cannot ${WHAT[permission]}`),
  };
}
