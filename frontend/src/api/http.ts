/**
 * Minimal JSON-over-HTTP client: one place that turns non-2xx answers into ApiError. Each call takes
 * an `apiUrl` (contract.ts), so its answer has the type the API's schema gives that route.
 */
import type { Answer, ApiUrl, RequestBody, RouteOf } from './contract';
import { measure } from '../shared/timing';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Extract a human message from a FastAPI-style error body (`{detail: string | {msg}[]}`). */
export function errorDetail(body: unknown, fallback: string): string {
  if (typeof body !== 'object' || body === null || !('detail' in body)) return fallback;
  const detail: unknown = body.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d: unknown) => {
      if (typeof d === 'object' && d !== null && 'msg' in d && typeof d.msg === 'string') {
        const loc = 'loc' in d && Array.isArray(d.loc) ? d.loc.map(String).join('.') : '';
        return loc ? `${loc}: ${d.msg}` : d.msg;
      }
      return JSON.stringify(d);
    });
    return parts.join('; ');
  }
  return fallback;
}

export function parseErrorText(status: number, statusText: string, text: string): ApiError {
  const code = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  // A proxy in front of a stopped back end answers 502/503/504 without a JSON body.
  const fallback = status >= 502 && status <= 504 ? `The Stallscope API is not answering (${code}). Is the server running?` : code;
  try {
    return new ApiError(status, errorDetail(JSON.parse(text), fallback));
  } catch {
    return new ApiError(status, fallback);
  }
}

/**
 * Sent with every request. The console refuses a write without it (or a JSON body): another web site
 * can make the browser send a form or a bodiless POST here, but cannot add a custom header.
 */
export const REQUEST_HEADERS: Readonly<Record<string, string>> = { Accept: 'application/json', 'X-Requested-With': 'stallscope' };

/** Told the URL of every request answered 401, so the auth gate can send the person to sign in. */
export type UnauthorizedListener = (url: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Listen for 401 answers (a session that expired or ended); returns the unsubscribe. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * How a request leaves the page. The console sends it with `fetch`; the offline bundle viewer answers
 * from the responses embedded in its file instead (bundle/replayTransport.ts). A transport may throw
 * an ApiError of its own, which reaches the caller unchanged.
 */
export type Transport = (url: string, init: RequestInit) => Promise<Response>;

let transport: Transport = (url, init) => fetch(url, init);

/** Replace how every request of this module is sent; for the bundle viewer, once, before rendering. */
export function setTransport(next: Transport): void {
  transport = next;
}

async function send(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await transport(url, {
      method,
      headers: body === undefined ? REQUEST_HEADERS : { ...REQUEST_HEADERS, 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (e) {
    if ((e instanceof DOMException && e.name === 'AbortError') || e instanceof ApiError) throw e;
    throw new ApiError(0, `Cannot reach the Stallscope API (${method} ${url}). Is the server running?`);
  }
  if (res.status === 401) for (const listener of unauthorizedListeners) listener(url);
  if (!res.ok) throw parseErrorText(res.status, res.statusText, await res.text());
  return res;
}

/** Names of the measures (shared/timing.ts) for a request: until the whole body is in; parse and decode. */
export interface RequestTiming {
  fetch: string;
  decode: string;
}

/**
 * The answer of a GET, typed as the schema says. Not checked at run time: the contract is the
 * back end's schema, which a test keeps equal to the one these types are generated from.
 */
export async function getJson<R extends RouteOf<'get'>>(url: ApiUrl<R>, signal?: AbortSignal): Promise<Answer<R, 'get'>> {
  const res = await send('GET', url, undefined, signal);
  return (await readJson(res, url)) as Answer<R, 'get'>;
}

/**
 * getJson, measured; `received` is when the body had arrived (a performance.now() time). `decode`,
 * for the few answers that have one (the flame and diff trees), runs inside the decode measure.
 */
export async function getJsonTimed<R extends RouteOf<'get'>, T = Answer<R, 'get'>>(
  url: ApiUrl<R>,
  timing: RequestTiming,
  signal?: AbortSignal,
  decode: (v: unknown) => T = (v) => v as T,
): Promise<{ value: T; received: number }> {
  const requested = performance.now();
  const res = await send('GET', url, undefined, signal);
  const text = await res.text();
  const received = performance.now();
  const value = decode(parseJson(res, url, text));
  measure(timing.fetch, requested, received);
  measure(timing.decode, received);
  return { value, received };
}

export async function postJson<R extends RouteOf<'post'>>(url: ApiUrl<R>, body: RequestBody<R, 'post'>): Promise<Answer<R, 'post'>> {
  const res = await send('POST', url, body);
  return (await readJson(res, url)) as Answer<R, 'post'>;
}

export async function putJson<R extends RouteOf<'put'>>(url: ApiUrl<R>, body: RequestBody<R, 'put'>): Promise<Answer<R, 'put'>> {
  const res = await send('PUT', url, body);
  return (await readJson(res, url)) as Answer<R, 'put'>;
}

export async function patchJson<R extends RouteOf<'patch'>>(url: ApiUrl<R>, body: RequestBody<R, 'patch'>): Promise<Answer<R, 'patch'>> {
  const res = await send('PATCH', url, body);
  return (await readJson(res, url)) as Answer<R, 'patch'>;
}

/** POST a JSON body for a file answer (a bundle's zip): the body as a Blob, errors as ApiError. */
export async function postForBlob<R extends RouteOf<'post'>>(url: ApiUrl<R>, body: RequestBody<R, 'post'>, signal?: AbortSignal): Promise<Blob> {
  const res = await send('POST', url, body, signal);
  return res.blob();
}

/** DELETE; the body, if any, is ignored. */
export async function deleteRequest(url: ApiUrl<RouteOf<'delete'>>): Promise<void> {
  await send('DELETE', url);
}

/** POST without a body for an action answered 204 (a restore); the answer's body, if any, is ignored. */
export async function postNoContent(url: ApiUrl<RouteOf<'post'>>): Promise<void> {
  await send('POST', url);
}

async function readJson(res: Response, url: string): Promise<unknown> {
  return parseJson(res, url, await res.text());
}

function parseJson(res: Response, url: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(res.status, `The server answered ${url} with something that is not JSON.`);
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
