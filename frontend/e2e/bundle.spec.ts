/**
 * The vendor bundle opens offline: an incident of two hosts (the fsync lab's bad and fixed runs) is
 * exported with the default redaction, its `index.html` is opened from disk with every request but
 * `file:` aborted, and every view it lists draws from the data inside it — with no answer missing
 * (the viewer records any request the bundle cannot answer), no network request, and neither host
 * name anywhere on the pages. Then the bundle is imported into a fresh console (its own data
 * directory and database, started here) and every capture shows the same flame-graph totals.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, request as newRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { createIncident, repo, uploadCapture, waitParsed } from './helpers';

const lab = path.join(repo, 'lab', 'fsync-behind-writeback', 'captures');
const HOSTS = { bad: 'db-bad-7', fixed: 'db-fixed-2' };

interface ManifestView {
  kind: string;
  title: string;
  route: string;
}

/** What shows that each kind of view drew from its data. */
const DRAWN: Record<string, (page: Page) => ReturnType<Page['locator']>> = {
  incident: (page) => page.getByTestId('capture-row').first(),
  timeline: (page) => page.locator('canvas[data-track]').first(),
  flame: (page) => page.locator('[data-testid="flame-chart"] svg rect').first(),
  diff: (page) => page.getByTestId('diff-row').first(),
  threads: (page) => page.getByTestId('thread-row').first(),
  heatmap: (page) => page.getByTestId('heatmap-canvas'),
  events: (page) => page.locator('table tbody tr').first(),
  metrics: (page) => page.getByTestId('metric-summary').first(),
  snapshot: (page) => page.getByTestId('snapshot-section').first(),
  'config-diff': (page) => page.getByTestId('config-diff-summary'),
};

test('an exported bundle opens from disk, offline, and every view draws', async ({ request, browser }) => {
  test.setTimeout(360_000);
  const incident = await createIncident(request, `fsync stalls on ${HOSTS.bad}`);
  const uploaded: number[] = [];
  for (const [side, host] of Object.entries(HOSTS)) {
    // The captures, not the run's notes and logs beside them.
    for (const name of fs.readdirSync(path.join(lab, side)).filter((n) => /\.(gz|json)$/.test(n)).sort()) {
      uploaded.push((await uploadCapture(request, incident, path.join(lab, side, name), { host })).id);
    }
  }

  const exported = await request.post(`/api/incidents/${incident}/bundle`, {
    data: {},
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    timeout: 120_000,
  });
  expect(exported.ok(), await exported.text()).toBe(true);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'stallscope-bundle-'));
  const zip = path.join(folder, 'bundle.zip');
  fs.writeFileSync(zip, await exported.body());
  const unpack = 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])';
  execFileSync(path.join(repo, '.venv', 'bin', 'python'), ['-c', unpack, zip, folder]);
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { views: ManifestView[] };
  expect(new Set(manifest.views.map((v) => v.kind))).toEqual(new Set(Object.keys(DRAWN)));

  const offline = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const requested: string[] = [];
  await offline.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requested.push(url);
    return route.abort();
  });
  const page = await offline.newPage();
  const index = `file://${path.join(folder, 'index.html')}`;
  await page.goto(index);
  await expect(page.getByTestId('bundle-views')).toBeVisible();
  for (const view of manifest.views) {
    await test.step(`${view.kind}: ${view.title}`, async () => {
      await page.goto(`${index}#${view.route}`);
      const drawn = DRAWN[view.kind];
      if (!drawn) throw new Error(`no check for view kind ${view.kind}`);
      await expect(drawn(page), `${view.title} (${view.route}) did not draw`).toBeVisible({ timeout: 20_000 });
      const text = await page.locator('body').innerText();
      for (const host of Object.values(HOSTS)) expect(text, `${view.title} shows a host name`).not.toContain(host);
    });
  }
  const misses = await page.evaluate(() => (window as unknown as { __stallscopeBundleMisses?: string[] }).__stallscopeBundleMisses ?? []);
  expect(misses, 'requests the bundle could not answer').toEqual([]);
  expect(requested, 'requests that left the file').toEqual([]);
  await offline.close();

  // The vendor's side: a console of its own imports the bundle; every capture's flame graph has the
  // same totals as here. The manifest numbers captures in the order of their ids.
  const manifestCaptures = (JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { captures: { number: number; samples: number }[] }).captures;
  const original = [...uploaded].sort((a, b) => a - b);
  const fresh = await startConsole();
  try {
    const imported = await fresh.api.post('/api/bundles?filename=bundle.zip', {
      data: fs.readFileSync(zip),
      headers: { 'content-type': 'application/octet-stream', 'x-requested-with': 'XMLHttpRequest' },
      timeout: 120_000,
    });
    expect(imported.status(), await imported.text()).toBe(201);
    const answer = (await imported.json()) as { captures: { id: number; filename: string }[] };
    const byNumber = new Map(answer.captures.map((c) => [Number(c.filename.split('.')[0]), c.id]));
    const sampled = manifestCaptures.filter((c) => c.samples > 0);
    expect(sampled.length).toBeGreaterThan(0);
    for (const capture of manifestCaptures) {
      const id = byNumber.get(capture.number);
      if (id === undefined) throw new Error(`capture ${capture.number} was not imported`);
      await waitParsed(fresh.api, id);
    }
    for (const capture of sampled) {
      const there = await flameTotals(fresh.api, byNumber.get(capture.number) ?? 0);
      const here = await flameTotals(request, original[capture.number - 1] ?? 0);
      expect(there, `capture ${capture.number}'s flame graph after import`).toEqual(here);
    }
  } finally {
    await fresh.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

async function flameTotals(api: APIRequestContext, capture: number): Promise<{ total: number; samples: number }> {
  const flame = (await (await api.get(`/api/flame?captures=${capture}`)).json()) as { total: number; total_samples: number };
  return { total: flame.total, samples: flame.total_samples };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A console started the README's way on a throwaway data directory, its first admin signed in. */
async function startConsole(): Promise<{ api: APIRequestContext; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stallscope-fresh-'));
  const port = await freePort();
  const password = `fresh-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const child: ChildProcess = spawn(path.join(repo, '.venv', 'bin', 'stallscope'), ['serve', '--port', String(port)], {
    env: { ...process.env, STALLSCOPE_DATA_DIR: dataDir, STALLSCOPE_ADMIN_PASSWORD: password },
    stdio: 'ignore',
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const api = await newRequest.newContext({ baseURL });
    await expect
      .poll(async () => (await api.get('/api/health').catch(() => null))?.status() ?? 0, { timeout: 120_000, intervals: [500, 1000] })
      .toBe(200);
    const login = await api.post('/api/auth/login', { data: { username: 'admin', password }, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(login.ok(), await login.text()).toBe(true);
    return { api, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
