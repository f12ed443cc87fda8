/** The admin routes: people (accounts) and the audit log. Types, decoders at the boundary, calls. */
import { arr, bool, nullable, num, obj, oneOf, str } from '../../api/decode';
import { getJson, patchJson, postJson } from '../../api/http';

export const ACCOUNT_ROLES = ['viewer', 'responder', 'admin'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export interface User {
  id: number;
  name: string;
  role: AccountRole;
  has_password: boolean;
  /** Has signed in through the identity provider at least once. */
  sso: boolean;
  email: string | null;
  created_at: string;
  last_login_at: string | null;
  disabled_at: string | null;
}

export interface NewUser {
  name: string;
  role: AccountRole;
  /** Absent: the account signs in through the identity provider only. */
  password?: string;
  email?: string;
}

export interface UserChange {
  role?: AccountRole;
  disabled?: boolean;
  password?: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  /** The actor's role when it acted, or "system" for the console itself. */
  actor_kind: string;
  actor_id: number | null;
  actor_name: string;
  action: string;
  object_type: string;
  object_id: string | null;
  incident_id: number | null;
  detail: Record<string, unknown>;
  address: string | null;
}

const accountRole = oneOf(ACCOUNT_ROLES);
const nstr = nullable(str);
const nnum = nullable(num);

export function decodeUser(v: unknown, path = 'user'): User {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    name: str(o.name, `${path}.name`),
    role: accountRole(o.role, `${path}.role`),
    has_password: bool(o.has_password, `${path}.has_password`),
    sso: bool(o.sso, `${path}.sso`),
    email: nstr(o.email, `${path}.email`),
    created_at: str(o.created_at, `${path}.created_at`),
    last_login_at: nstr(o.last_login_at, `${path}.last_login_at`),
    disabled_at: nstr(o.disabled_at, `${path}.disabled_at`),
  };
}

export const decodeUsers = (v: unknown): User[] => arr(v, 'users', decodeUser);

/** An object id may be a number or a string on the wire (a token's id, a share's slug): kept as text. */
function objectId(v: unknown, path: string): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return String(v);
  return str(v, path);
}

export function decodeAuditEntry(v: unknown, path = 'entry'): AuditEntry {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    at: str(o.at, `${path}.at`),
    actor_kind: str(o.actor_kind, `${path}.actor_kind`),
    actor_id: nnum(o.actor_id, `${path}.actor_id`),
    actor_name: str(o.actor_name, `${path}.actor_name`),
    action: str(o.action, `${path}.action`),
    object_type: str(o.object_type, `${path}.object_type`),
    object_id: objectId(o.object_id, `${path}.object_id`),
    incident_id: nnum(o.incident_id, `${path}.incident_id`),
    detail: o.detail === null || o.detail === undefined ? {} : obj(o.detail, `${path}.detail`),
    address: nstr(o.address, `${path}.address`),
  };
}

export const decodeAuditEntries = (v: unknown): AuditEntry[] => arr(v, 'audit', decodeAuditEntry);

export const listUsers = (signal?: AbortSignal): Promise<User[]> => getJson('/api/users', decodeUsers, signal);

export const createUser = (user: NewUser): Promise<User> => postJson('/api/users', user, decodeUser);

export const changeUser = (id: number, change: UserChange): Promise<User> => patchJson(`/api/users/${id}`, change, decodeUser);

export const readAudit = (query: URLSearchParams, signal?: AbortSignal): Promise<AuditEntry[]> =>
  getJson(`/api/audit?${query.toString()}`, decodeAuditEntries, signal);
