/** Signing in and out, who am I, one's own password and personal API tokens: types (the API's) and calls. */
import { apiUrl, routeQuery, type Schemas } from '../../api/contract';
import { ApiError, REQUEST_HEADERS, deleteRequest, getJson, parseErrorText, postJson } from '../../api/http';

/** Who the console is talking to: a person, or a guest link's holder. */
export type Me = Schemas['MeOut'];
export type Role = Me['role'];
export type Permission = Me['permissions'][number];
export type Via = Me['via'];

/** A personal token for the CLI and scripts (`STALLSCOPE_TOKEN`), with its owner's role. */
export type PersonalToken = Schemas['ApiTokenOut'];
export type NewPersonalToken = Schemas['ApiTokenCreated'];

/** Whether the sign-in page offers single sign-on, and the words on its button. */
export type SingleSignOn = Schemas['OidcOut'];

/** A token's state at `nowMs`, for its row. */
export function tokenState(t: PersonalToken, nowMs: number): 'revoked' | 'expired' | 'active' {
  if (t.revoked_at) return 'revoked';
  if (t.expires_at && Date.parse(t.expires_at) <= nowMs) return 'expired';
  return 'active';
}

export const getSingleSignOn = (signal?: AbortSignal): Promise<SingleSignOn> => getJson(apiUrl('/api/auth/oidc'), signal);

/** A browser navigation (the provider's page, then back here), not an API call. */
export const singleSignOnHref = (next: string): string => apiUrl('/api/auth/oidc/login', routeQuery<'/api/auth/oidc/login'>({ next }));

/** Who is signed in, or null when nobody is (401). */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    return await getJson(apiUrl('/api/auth/me'), signal);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

export const logIn = (username: string, password: string): Promise<Me> => postJson(apiUrl('/api/auth/login'), { username, password });

/** End the session. A 401 means it had ended already, which is what was wanted. */
export async function logOut(): Promise<void> {
  const res = await fetch(apiUrl('/api/auth/logout'), { method: 'POST', headers: REQUEST_HEADERS });
  if (!res.ok && res.status !== 401) throw parseErrorText(res.status, res.statusText, await res.text());
}

export const changePassword = (current: string, next: string): Promise<Me> =>
  postJson(apiUrl('/api/auth/password'), { current, new: next });

export const listPersonalTokens = (signal?: AbortSignal): Promise<PersonalToken[]> =>
  getJson(apiUrl('/api/auth/tokens'), signal);

/** `expiresInDays` null: never expires. */
export const createPersonalToken = (name: string, expiresInDays: number | null): Promise<NewPersonalToken> =>
  postJson(apiUrl('/api/auth/tokens'), { name, expires_in_days: expiresInDays });

export const revokePersonalToken = (id: number): Promise<void> => deleteRequest(apiUrl('/api/auth/tokens/{token_id}', { token_id: id }));

/** Auth routes whose 401 means "wrong password", not "your session ended". */
const CREDENTIAL_CHECKS = ['/api/auth/login', '/api/auth/password'];

/** Does a 401 from this URL mean the session is gone (so the person must sign in again)? */
export const isSessionLost = (url: string): boolean => !CREDENTIAL_CHECKS.some((path) => url === path || url.startsWith(`${path}?`));
