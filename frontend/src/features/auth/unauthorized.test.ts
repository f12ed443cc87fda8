// @vitest-environment node
/** The 401 hook in the API client, against a real (tiny) HTTP server. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiUrl, RouteOf } from '../../api/contract';
import { ApiError, getJson, onUnauthorized } from '../../api/http';

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const status = Number(req.url?.slice(1).split('?')[0]);
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { ok: true } : { detail: status === 401 ? 'not signed in: sign in' : 'viewer ana may not change incidents' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The test server answers `/<status>` with that status. */
const fetchStatus = (status: number) => getJson(`${base}/${status}` as ApiUrl<RouteOf<'get'>>);

describe('onUnauthorized', () => {
  it('hears every 401, with its URL, and the caller still gets the error', async () => {
    const heard: string[] = [];
    const stop = onUnauthorized((url) => heard.push(url));
    try {
      await expect(fetchStatus(401)).rejects.toEqual(new ApiError(401, 'not signed in: sign in'));
      expect(heard).toEqual([`${base}/401`]);
    } finally {
      stop();
    }
  });
  it('does not hear a 403 or a success: those keep the person where they are', async () => {
    const heard: string[] = [];
    const stop = onUnauthorized((url) => heard.push(url));
    try {
      await expect(fetchStatus(403)).rejects.toThrow('viewer ana may not change incidents');
      await expect(fetchStatus(200)).resolves.toEqual({ ok: true });
      expect(heard).toEqual([]);
    } finally {
      stop();
    }
  });
  it('stops hearing once unsubscribed', async () => {
    const heard: string[] = [];
    onUnauthorized((url) => heard.push(url))();
    await expect(fetchStatus(401)).rejects.toThrow();
    expect(heard).toEqual([]);
  });
});
