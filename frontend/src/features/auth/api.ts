/** Signing in and out, who am I, one's own password and personal API tokens: types, decoders, calls. */
import { arr, bool, nullable, num, obj, oneOf, str } from '../../api/decode';
import { ApiError, REQUEST_HEADERS, deleteRequest, getJson, parseErrorText, postJson } from '../../api/http';

export const ROLES = ['viewer', 'responder', 'admin', 'guest'] as const;
export type Role = (typeof ROLES)[number];
export const PERMISSIONS = ['read', 'respond', 'upload', 'admin', 'export'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const VIAS = ['session', 'token', 'guest'] as const;
export type Via = (typeof VIAS)[number];

/** Who the console is talking to: a person, or (later) a guest link's holder. */
export interface Me {
  name: string;
  role: Role;
  via: Via;
  user_id: number | null;
  /** Guests: the one incident the link opens. */
  incident_id: number | null;
  capture_ids: number[] | null;
  views: string[] | null;
  permissions: Permission[];
  /** Guests: when the link stops working (ISO 8601). */
  expires_at: string | null;
}

/** A personal token for the CLI and scripts (`STALLSCOPE_TOKEN`), with its owner's role. */
export interface PersonalToken {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface NewPersonalToken extends PersonalToken {
  /** Shown once, at creation. */
  secret: string;
}

/** Whether the sign-in page offers single sign-on, and the words on its button. */
export interface SingleSignOn {
  enabled: boolean;
  label: string;
}

/** A token's state at `nowMs`, for its row. */
export function tokenState(t: PersonalToken, nowMs: number): 'revoked' | 'expired' | 'active' {
  if (t.revoked_at) return 'revoked';
  if (t.expires_at && Date.parse(t.expires_at) <= nowMs) return 'expired';
  return 'active';
}

const role = oneOf(ROLES);
const via = oneOf(VIAS);
const nstr = nullable(str);
const nnum = nullable(num);

/** Permissions this front end does not know yet are dropped, not fatal: the server may add some. */
function decodePermissions(v: unknown, path: string): Permission[] {
  const known = PERMISSIONS as readonly string[];
  return arr(v, path, str).filter((p): p is Permission => known.includes(p));
}

export function decodeMe(v: unknown): Me {
  const o = obj(v, 'me');
  const ids = o.capture_ids;
  const views = o.views;
  return {
    name: str(o.name, 'me.name'),
    role: role(o.role, 'me.role'),
    via: via(o.via, 'me.via'),
    user_id: nnum(o.user_id, 'me.user_id'),
    incident_id: nnum(o.incident_id, 'me.incident_id'),
    capture_ids: ids === null || ids === undefined ? null : arr(ids, 'me.capture_ids', num),
    views: views === null || views === undefined ? null : arr(views, 'me.views', str),
    permissions: decodePermissions(o.permissions, 'me.permissions'),
    expires_at: o.expires_at === undefined ? null : nstr(o.expires_at, 'me.expires_at'),
  };
}

export function decodePersonalToken(v: unknown, path = 'token'): PersonalToken {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    name: str(o.name, `${path}.name`),
    prefix: str(o.prefix, `${path}.prefix`),
    created_at: str(o.created_at, `${path}.created_at`),
    last_used_at: nstr(o.last_used_at, `${path}.last_used_at`),
    expires_at: nstr(o.expires_at, `${path}.expires_at`),
    revoked_at: nstr(o.revoked_at, `${path}.revoked_at`),
  };
}

export const decodePersonalTokens = (v: unknown): PersonalToken[] => arr(v, 'tokens', decodePersonalToken);

export function decodeNewPersonalToken(v: unknown): NewPersonalToken {
  const o = obj(v, 'token');
  return { ...decodePersonalToken(v), secret: str(o.secret, 'token.secret') };
}

export function decodeSingleSignOn(v: unknown): SingleSignOn {
  const o = obj(v, 'oidc');
  return { enabled: bool(o.enabled, 'oidc.enabled'), label: str(o.label, 'oidc.label') };
}

export const getSingleSignOn = (signal?: AbortSignal): Promise<SingleSignOn> => getJson('/api/auth/oidc', decodeSingleSignOn, signal);

/** A browser navigation (the provider's page, then back here), not an API call. */
export const singleSignOnHref = (next: string): string => `/api/auth/oidc/login?${new URLSearchParams({ next }).toString()}`;

/** Who is signed in, or null when nobody is (401). */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    return await getJson('/api/auth/me', decodeMe, signal);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

export const logIn = (username: string, password: string): Promise<Me> =>
  postJson('/api/auth/login', { username, password }, decodeMe);

/** End the session. A 401 means it had ended already, which is what was wanted. */
export async function logOut(): Promise<void> {
  const res = await fetch('/api/auth/logout', { method: 'POST', headers: REQUEST_HEADERS });
  if (!res.ok && res.status !== 401) throw parseErrorText(res.status, res.statusText, await res.text());
}

export const changePassword = (current: string, next: string): Promise<Me> =>
  postJson('/api/auth/password', { current, new: next }, decodeMe);

export const listPersonalTokens = (signal?: AbortSignal): Promise<PersonalToken[]> =>
  getJson('/api/auth/tokens', decodePersonalTokens, signal);

/** `expiresInDays` null: never expires. */
export const createPersonalToken = (name: string, expiresInDays: number | null): Promise<NewPersonalToken> =>
  postJson('/api/auth/tokens', { name, expires_in_days: expiresInDays }, decodeNewPersonalToken);

export const revokePersonalToken = (id: number): Promise<void> => deleteRequest(`/api/auth/tokens/${id}`);

/** Auth routes whose 401 means "wrong password", not "your session ended". */
const CREDENTIAL_CHECKS = ['/api/auth/login', '/api/auth/password'];

/** Does a 401 from this URL mean the session is gone (so the person must sign in again)? */
export const isSessionLost = (url: string): boolean => !CREDENTIAL_CHECKS.some((path) => url === path || url.startsWith(`${path}?`));
