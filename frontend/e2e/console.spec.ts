/**
 * The whole stack as a person uses it: create an incident, upload a real `perf script` capture,
 * wait for parsing, read the flame graph, search, zoom, and reopen the copied link elsewhere.
 *
 * Env: STALLSCOPE_URL (console), STALLSCOPE_CORPUS (the shared corpus; its files are the defaults
 * below), STALLSCOPE_E2E_CAPTURE (a perf script file), STALLSCOPE_E2E_FOLDED (its expected folded
 * stacks; default: the corpus's results file beside it), STALLSCOPE_E2E_TRACE (a perf trace file).
 * A test whose corpus file is absent skips, saying which; a file named by one of these variables
 * must exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatPercent } from '../src/shared/units';
import { HIGHLIGHT_COLOR } from '../src/features/flame/palette';
import { URL_STATE_VERSION } from '../src/features/flame/urlState';
import { heaviest, matchedShare, readFolded, rootFrames } from './expected';
import { artifacts, corpus, recordCspViolations } from './helpers';

const capture =
  process.env.STALLSCOPE_E2E_CAPTURE ?? path.join(corpus, 'perf-script', 'flamegraph', 'perf-funcab-cmd-01.txt');
const folded =
  process.env.STALLSCOPE_E2E_FOLDED ??
  path.join(path.dirname(capture), 'results', `${path.basename(capture).replace(/\.txt(\.gz)?$/, '')}-collapsed-all.txt`);
const trace = process.env.STALLSCOPE_E2E_TRACE ?? path.join(corpus, 'captures', 'perf_trace.mmap_fsync_futex.txt.gz');
const named = [process.env.STALLSCOPE_E2E_CAPTURE, process.env.STALLSCOPE_E2E_FOLDED, process.env.STALLSCOPE_E2E_TRACE];

/** Skip the calling test, printing why, unless every file is there; a file an env variable names must be. */
function requireFiles(...files: string[]): void {
  for (const file of files) if (named.includes(file)) expect(fs.existsSync(file), `file ${file}`).toBe(true);
  const absent = files.filter((file) => !fs.existsSync(file));
  if (absent.length === 0) return;
  const reason = `not in the test corpus under ${corpus}: ${absent.join(', ')} (set STALLSCOPE_CORPUS)`;
  console.log(`skipped: ${reason}`);
  test.skip(true, reason);
}

test.describe.configure({ mode: 'serial' });

/** CSS attribute selectors need quotes and backslashes escaped; frame names may contain both. */
const frame = (page: Page, name: string): Locator =>
  page.locator(`[data-testid="flame-chart"] g.frame[name="${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`);

async function createIncident(page: Page, title: string): Promise<number> {
  await page.goto('/');
  await page.getByRole('button', { name: 'New incident' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Severity').selectOption('sev2');
  await page.getByLabel('Title').press('Enter');
  await page.waitForURL(/\/incidents\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
  return Number(/\/incidents\/(\d+)$/.exec(page.url())?.[1]);
}

async function uploadAndWait(page: Page, file: { name: string; mimeType: string; buffer: Buffer } | string): Promise<Locator> {
  await page.getByLabel('Host', { exact: true }).fill('e2e-host');
  await page.getByTestId('capture-file-input').setInputFiles(file);
  const row = page.getByTestId('capture-row').first();
  await expect(row.getByTestId('capture-status')).toHaveText(/^(ready|partial)$/, { timeout: 60_000 });
  return row;
}

async function chartWidth(page: Page): Promise<number> {
  return Number(await page.locator('[data-testid="flame-chart"] svg').getAttribute('width'));
}

async function measureCount(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n, 'measure').length, name);
}

async function rectWidth(page: Page, name: string): Promise<number> {
  return Number(await frame(page, name).first().locator('rect').getAttribute('width'));
}

test('incident → upload → flame graph → search → zoom → shared link', async ({ page, browser }) => {
  requireFiles(capture, folded);
  const stacks = readFolded(folded);
  const roots = rootFrames(stacks);
  const top = heaviest(stacks);
  const term = top.frames.at(-1) ?? '';
  const zoomPath = top.frames.slice(0, Math.min(3, top.frames.length));
  const zoomLeaf = zoomPath.at(-1) ?? '';

  const cspViolations = await recordCspViolations(page);
  await createIncident(page, `e2e ${path.basename(capture)} ${Date.now()}`);
  await expect(page.getByText('No captures yet', { exact: true })).toBeVisible();
  const row = await uploadAndWait(page, capture);
  await expect(row).toContainText(path.basename(capture));
  // Captures are grouped under a heading per host.
  await expect(page.getByTestId('host-group').filter({ has: row })).toContainText('e2e-host');

  await row.getByRole('link', { name: 'Open flame graph' }).click();
  await page.waitForURL(/\/flame\?/);

  // The processes under "all" are exactly the reference's comms.
  await expect(frame(page, 'all')).toHaveCount(1);
  for (const comm of roots) await expect(frame(page, comm).first()).toBeVisible();
  const level1 = await page.locator('[data-testid="flame-chart"] g.frame').evaluateAll((gs) =>
    gs.map((g) => g.getAttribute('name') ?? ''),
  );
  for (const comm of roots) expect(level1).toContain(comm);

  // Search: highlighted frames and the matched share of the total.
  await page.keyboard.press('/');
  await expect(page.getByTestId('flame-search')).toBeFocused();
  await page.keyboard.type(term);
  const expectedMatch = `matched ${formatPercent(matchedShare(stacks, term))} of total`;
  await expect(page.getByTestId('flame-matched')).toContainText(expectedMatch);
  await expect(page.locator(`[data-testid="flame-chart"] rect[fill="${HIGHLIGHT_COLOR}"]`).first()).toBeVisible();

  // Zoom: click a frame; it fills the width and the URL carries its path.
  await page.getByTestId('flame-search').blur();
  await frame(page, zoomLeaf).first().click();
  await expect.poll(() => new URL(page.url()).searchParams.getAll('zoom')).toEqual(zoomPath);
  const width = await chartWidth(page);
  await expect.poll(() => rectWidth(page, zoomLeaf)).toBeGreaterThan(width - 2);
  // Waits are timed as performance measures, and the last one is shown.
  await expect.poll(() => measureCount(page, 'flame:zoom')).toBeGreaterThan(0);
  expect(await measureCount(page, 'flame:render')).toBeGreaterThan(0);
  await expect(page.getByTestId('flame-timing')).toHaveText(/^zoom \d/);

  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toHaveText(/Copied|Copy failed/);
  const link = page.url();
  expect(new URL(link).searchParams.get('v')).toBe(String(URL_STATE_VERSION));
  expect(new URL(link).searchParams.get('q')).toBe(term);

  fs.mkdirSync(artifacts, { recursive: true });
  await page.mouse.move(5, 5);
  await page.screenshot({ path: path.join(artifacts, 'flame.png'), fullPage: true });

  // The folded download applies the same filters and agrees with the reference's processes.
  const href = await page.getByRole('link', { name: 'Download folded' }).getAttribute('href');
  const foldedRes = await page.request.get(href ?? '');
  expect(foldedRes.ok()).toBe(true);
  const served = (await foldedRes.text()).split('\n').filter(Boolean);
  expect(served.length).toBeGreaterThan(0);
  for (const line of served) expect(roots).toContain(line.split(';')[0]);

  // The same view in a fresh browser context: same search, same highlight, same zoom.
  const other = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const fresh = await other.newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('flame-search')).toHaveValue(term);
  await expect(fresh.getByTestId('flame-matched')).toContainText(expectedMatch);
  await expect(fresh.locator(`[data-testid="flame-chart"] rect[fill="${HIGHLIGHT_COLOR}"]`).first()).toBeVisible();
  await expect(fresh.getByTestId('zoom-crumbs')).toContainText(zoomLeaf);
  const freshWidth = await chartWidth(fresh);
  await expect.poll(() => rectWidth(fresh, zoomLeaf)).toBeGreaterThan(freshWidth - 2);
  await fresh.screenshot({ path: path.join(artifacts, 'flame-shared-link.png'), fullPage: true });

  // Esc resets zoom and search.
  await fresh.locator('body').press('Escape');
  await expect.poll(() => new URL(fresh.url()).searchParams.getAll('zoom')).toEqual([]);
  await expect(fresh.getByTestId('flame-search')).toHaveValue('');

  // A zoom clicked while a cleared search is still waiting to reach the URL is kept.
  await fresh.getByTestId('flame-search').fill(term);
  await expect(fresh.getByTestId('flame-matched')).toContainText(expectedMatch);
  await fresh.getByTestId('flame-search').fill('');
  await frame(fresh, zoomLeaf).first().click();
  await expect.poll(() => new URL(fresh.url()).searchParams.get('q')).toBeNull();
  await fresh.waitForTimeout(500);
  expect(new URL(fresh.url()).searchParams.getAll('zoom')).toEqual(zoomPath);
  await other.close();
  expect(await cspViolations(), 'the UI works under the console\'s Content-Security-Policy').toEqual([]);
});

test('hostile frame names render as text', async ({ page }) => {
  const evil = ['<script>window.__pwned=1</script>', '<img src=x onerror=window.__pwned=2>', 'std::operator<< <char>'];
  // A minimal perf script sample whose frames are the hostile names (leaf first).
  const perf = [
    'evil 4242 100.000001: cpu-clock: ',
    ...evil.map((name, i) => `\t${(0x400000 + i).toString(16)} ${name} (/opt/evil/bin)`),
    '',
    'evil 4242 100.010001: cpu-clock: ',
    ...evil.map((name, i) => `\t${(0x400000 + i).toString(16)} ${name} (/opt/evil/bin)`),
    '',
    '',
  ].join('\n');
  await createIncident(page, `e2e hostile names ${Date.now()}`);
  const row = await uploadAndWait(page, { name: 'evil.perf.txt', mimeType: 'text/plain', buffer: Buffer.from(perf) });
  await row.getByRole('link', { name: 'Open flame graph' }).click();
  await page.waitForURL(/\/flame\?/);

  const chart = page.getByTestId('flame-chart');
  await expect(frame(page, 'evil')).toHaveCount(1);
  for (const name of evil) {
    await expect(frame(page, name)).toHaveCount(1);
    await expect(chart.locator('.d3-flame-graph-label', { hasText: name }).first()).toHaveText(name);
  }
  await frame(page, evil[0] ?? '').first().hover();
  const tip = page.locator('.flame-tip');
  await expect(tip).toBeVisible();
  await expect(tip.locator('.flame-tip__name')).toHaveText(evil[0] ?? '');
  expect(await page.locator('[data-testid="flame-chart"] script, [data-testid="flame-chart"] img, .flame-tip script, .flame-tip img').count()).toBe(0);
  expect(await page.evaluate(() => (window as Window & { __pwned?: number }).__pwned)).toBeUndefined();
});

test('perf trace capture → events table, slowest first', async ({ page }) => {
  requireFiles(trace);
  await createIncident(page, `e2e events ${Date.now()}`);
  const row = await uploadAndWait(page, trace);
  await expect(row.getByTestId('capture-records')).toContainText(/syscalls/);
  await row.getByRole('link', { name: 'Open events' }).click();
  await page.waitForURL(/\/events\?/);

  const rows = page.getByTestId('event-row');
  await expect(rows.first()).toBeVisible();
  const durations = (await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-duration-ns') ?? ''))).map((d) =>
    // Unclosed events (no duration) sort as the longest.
    d === '' ? Number.POSITIVE_INFINITY : Number(d),
  );
  expect(durations.length).toBeGreaterThan(1);
  for (let i = 1; i < durations.length; i += 1) expect(durations[i]).toBeLessThanOrEqual(durations[i - 1] ?? Number.POSITIVE_INFINITY);
  await expect(page.getByRole('columnheader', { name: /Duration/ })).toHaveAttribute('aria-sort', 'descending');

  await rows.first().click();
  await expect(page.getByTestId('event-detail')).toBeVisible();
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'events.png') });
});
