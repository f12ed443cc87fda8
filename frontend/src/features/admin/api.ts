/** The admin routes: people (accounts) and the audit log. Types (the API's) and calls. */
import { apiUrl, membersOf, type RouteQuery, type Schemas } from '../../api/contract';
import { getJson, patchJson, postJson } from '../../api/http';

export type User = Schemas['UserOut'];
export type AccountRole = User['role'];
export const ACCOUNT_ROLES = membersOf<AccountRole>({ viewer: true, responder: true, admin: true });

/** A new account; without a password it signs in through the identity provider only. */
export type NewUser = Schemas['UserCreate'];
export type UserChange = Schemas['UserChange'];
export type AuditEntry = Schemas['AuditEntryOut'];

export const listUsers = (signal?: AbortSignal): Promise<User[]> => getJson(apiUrl('/api/users'), signal);

export const createUser = (user: NewUser): Promise<User> => postJson(apiUrl('/api/users'), user);

export const changeUser = (id: number, change: UserChange): Promise<User> => patchJson(apiUrl('/api/users/{user_id}', { user_id: id }), change);

export const readAudit = (query: RouteQuery<'/api/audit'>, signal?: AbortSignal): Promise<AuditEntry[]> => getJson(apiUrl('/api/audit', query), signal);
