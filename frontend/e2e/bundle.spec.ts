/**
 * The vendor bundle opens offline: an incident of two hosts (the fsync lab's bad and fixed runs) is
 * exported with the default redaction, its `index.html` is opened from disk with every request but
 * `file:` aborted, and every view it lists draws from the data inside it — with no answer missing
 * (the viewer records any request the bundle cannot answer), no network request, and neither host
 * name anywhere on the pages.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createIncident, repo, uploadCapture } from './helpers';

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
  test.setTimeout(240_000);
  const incident = await createIncident(request, `fsync stalls on ${HOSTS.bad}`);
  for (const [side, host] of Object.entries(HOSTS)) {
    // The captures, not the run's notes and logs beside them.
    for (const name of fs.readdirSync(path.join(lab, side)).filter((n) => /\.(gz|json)$/.test(n)).sort()) {
      await uploadCapture(request, incident, path.join(lab, side, name), { host });
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
  fs.rmSync(folder, { recursive: true, force: true });
});
