/**
 * The differential flame graph as a person builds it: two hosts' captures with a known change, B
 * chosen from the incident, A picked in the page, the table's deltas read, the colours checked, the
 * "A only" view, and the link reopened in a fresh page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { HIGHLIGHT_COLOR } from '../src/features/flame/palette';
import { OUTLINE } from '../src/features/diff/colors';
import { corpus, createIncident, measureCount, saveScreenshot, uploadCapture } from './helpers';

test.describe.configure({ mode: 'serial' });

/** One perf script sample of 1 ms of cpu-clock; frames leaf first, as perf prints them. */
function sample(comm: string, tid: number, t: number, ...frames: string[]): string {
  const lines = [`${comm} ${tid}/${tid} [000] ${t.toFixed(6)}: 1000000 cpu-clock:`];
  frames.forEach((f, i) => lines.push(`\t    ${(0x1000 + i).toString(16)} ${f} (/usr/bin/${comm})`));
  return `${lines.join('\n')}\n\n`;
}

/** `counts` ms in each leaf under db → main → query, one sample every 10 ms from `start` s. */
function capture(counts: Record<string, number>, start = 100): string {
  let t = start;
  let out = '';
  for (const [leaf, n] of Object.entries(counts)) {
    for (let i = 0; i < n; i += 1) {
      out += sample('db', 11, t, leaf, 'query', 'main');
      t += 0.01;
    }
  }
  return out;
}

// scan doubles and sort halves (2:1 both ways); parse is gone in B, compress is new. 8 ms each.
const BEFORE = capture({ scan: 2, sort: 4, parse: 2 });
const AFTER = capture({ scan: 4, sort: 2, compress: 2 });

const frame = (page: Page, side: 'a' | 'b', name: string): Locator =>
  page.locator(`[data-testid="diff-chart-${side}"] g.frame[name="${name}"]`);

function row(page: Page, name: string): Locator {
  return page.getByTestId('diff-row').filter({ has: page.getByRole('button', { name, exact: true }) });
}

async function hue(rect: Locator): Promise<{ h: number; s: number }> {
  const fill = (await rect.getAttribute('fill')) ?? '';
  const m = /^hsl\((\d+) (\d+)% (\d+)%\)$/.exec(fill);
  expect(m, `fill ${fill}`).not.toBeNull();
  return { h: Number(m?.[1]), s: Number(m?.[2]) };
}

async function expectDeltas(page: Page): Promise<void> {
  await expect(row(page, 'scan').getByTestId('delta-total')).toHaveText('+2 ms');
  await expect(row(page, 'scan').getByTestId('delta-self')).toHaveText('+2 ms');
  await expect(row(page, 'sort').getByTestId('delta-total')).toHaveText('−2 ms');
  await expect(row(page, 'compress').getByTestId('delta-total')).toHaveText('+2 ms');
  await expect(row(page, 'parse').getByTestId('delta-total')).toHaveText('−2 ms');
  await expect(row(page, 'query').getByTestId('delta-total')).toHaveText('0');
}

test('build a diff between two hosts, read it, switch to A only, reopen the link', async ({ page, browser, request }) => {
  const incident = await createIncident(request, `e2e diff ${Date.now()}`);
  const healthy = await uploadCapture(request, incident, Buffer.from(BEFORE), { host: 'healthy', filename: 'before.txt' });
  const impacted = await uploadCapture(request, incident, Buffer.from(AFTER), { host: 'impacted', filename: 'after.txt' });

  // From the tabs with only the incident: B is every capture, A is not chosen yet.
  await page.goto(`/diff?incident=${incident}`);
  await expect(page.getByText('Pick the baseline: another host, an earlier time range')).toBeVisible();
  await expect(page.getByTestId('side-b-summary')).toContainText(`captures #${healthy.id}, #${impacted.id}`);

  // B: the impacted host only.
  await page.getByRole('checkbox', { name: `B: capture #${healthy.id} before.txt` }).uncheck();
  await expect(page.getByTestId('side-b-summary')).toHaveText(`capture #${impacted.id} · whole range`);
  await expect(page.getByTestId('preset-other-hosts')).toHaveText('A = the other host (healthy)');
  await saveScreenshot(page, 'diff-pick-baseline.png');

  // A: by hand, starting from a copy of B.
  await page.getByTestId('edit-a').click();
  await page.getByRole('checkbox', { name: `A: capture #${healthy.id} before.txt` }).check();
  await page.getByRole('checkbox', { name: `A: capture #${impacted.id} after.txt` }).uncheck();
  await expect(page.getByTestId('side-a-summary')).toHaveText(`capture #${healthy.id} · whole range`);

  await expect(page.getByTestId('diff-status')).toContainText('8 ms in 8 samples');
  await expectDeltas(page);

  // B coloured by change: scan grew (red), sort shrank (blue), compress is new (outlined), parse is not drawn.
  const scan = await hue(frame(page, 'b', 'scan').locator('rect'));
  expect(scan.h <= 10 || scan.h >= 350, `scan hue ${scan.h}`).toBe(true);
  expect(scan.s).toBeGreaterThanOrEqual(50);
  expect((await hue(frame(page, 'b', 'sort').locator('rect'))).h).toBeGreaterThan(180);
  await expect(frame(page, 'b', 'compress').locator('rect')).toHaveCSS('stroke', OUTLINE);
  await expect(frame(page, 'b', 'parse')).toHaveCount(0);
  await expect.poll(() => measureCount(page, 'diff:render')).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('diff-timing')).toContainText('render');
  const timings = await page.evaluate(() => performance.getEntriesByName('diff:render', 'measure').map((m) => Math.round(m.duration)));
  console.log(`diff:render ms: ${timings.join(', ')}`);

  // The tooltip gives both counts and the change.
  await frame(page, 'b', 'scan').hover();
  const tip = page.locator('.flame-tip:not([hidden])');
  await expect(tip).toContainText('2 ms · 25.0% of A');
  await expect(tip).toContainText('4 ms · 50.0% of B');
  await expect(tip).toContainText('+2 ms');
  await saveScreenshot(page, 'diff-b.png');

  // A row of the table searches the graph for its function.
  await row(page, 'sort').getByRole('button', { name: 'sort', exact: true }).click();
  await expect(frame(page, 'b', 'sort').locator('rect')).toHaveAttribute('fill', HIGHLIGHT_COLOR);
  await page.getByTestId('diff-search').fill('');
  await page.getByTestId('diff-search').press('Enter');

  // A only: the frames that vanished are drawn, outlined; the new ones are not.
  await page.getByTestId('mode-a').click();
  await expect(frame(page, 'a', 'parse').locator('rect')).toHaveCSS('stroke', OUTLINE);
  await expect(frame(page, 'a', 'compress')).toHaveCount(0);
  expect((await hue(frame(page, 'a', 'parse').locator('rect'))).h).toBeGreaterThan(180);
  await expect(page).toHaveURL(/mode=a/);
  await saveScreenshot(page, 'diff-a-only.png');

  await page.getByTestId('mode-side').click();
  await expect(frame(page, 'a', 'parse')).toHaveCount(1);
  await expect(frame(page, 'b', 'compress')).toHaveCount(1);
  await saveScreenshot(page, 'diff-side-by-side.png');
  await page.getByTestId('mode-a').click();

  // The link is the whole state: a fresh page shows the same diff.
  const url = page.url();
  expect(url).toContain(`a.captures=${healthy.id}`);
  expect(url).toContain(`b.captures=${impacted.id}`);
  const context = await browser.newContext();
  try {
    const fresh = await context.newPage();
    await fresh.goto(url);
    await expect(fresh.getByTestId('side-a-summary')).toHaveText(`capture #${healthy.id} · whole range`);
    await expect(fresh.getByTestId('side-b-summary')).toHaveText(`capture #${impacted.id} · whole range`);
    await expect(fresh.getByRole('radio', { name: 'A only: what vanished' })).toHaveAttribute('aria-checked', 'true');
    await expect(frame(fresh, 'a', 'parse').locator('rect')).toHaveCSS('stroke', OUTLINE);
    await expectDeltas(fresh);
    await saveScreenshot(fresh, 'diff-shared-link.png');

    // Swapping the sides turns every change around.
    await fresh.getByTestId('swap').click();
    await expect(row(fresh, 'scan').getByTestId('delta-total')).toHaveText('−2 ms');
    await expect(fresh.getByTestId('side-a-summary')).toHaveText(`capture #${impacted.id} · whole range`);

    // Off-CPU time: these CPU captures have none, and the page says so.
    await fresh.getByTestId('diff-source').selectOption('off-cpu');
    await expect(fresh.getByText('Nothing to compare: neither side has off-CPU intervals for these filters')).toBeVisible();
    await expect(fresh).toHaveURL(/source=off-cpu/);
  } finally {
    await context.close();
  }
});

test('a real capture against itself printed another way: a full node budget, nothing changed', async ({ page, request }) => {
  const printed = path.join(corpus, 'captures', 'cpu20s.perf.txt.gz');
  const fields = path.join(corpus, 'captures', 'cpu20s.F.perf.txt.gz');
  if (!fs.existsSync(printed) || !fs.existsSync(fields)) {
    console.log(`skipped: corpus captures not found under ${corpus} (set STALLSCOPE_CORPUS)`);
    test.skip(true, `corpus captures not found under ${corpus}`);
  }
  const incident = await createIncident(request, `e2e diff corpus ${Date.now()}`);
  const a = await uploadCapture(request, incident, fields, { host: 'perf-script-F' });
  const b = await uploadCapture(request, incident, printed, { host: 'perf-script' });

  await page.goto(`/diff?incident=${incident}&captures=${b.id}`);
  await page.getByTestId('preset-other-hosts').click();
  await expect(page.getByTestId('side-a-summary')).toHaveText(`capture #${a.id} · whole range`);
  await expect(page.getByTestId('diff-status')).toContainText('50,000 frames', { timeout: 60_000 });
  await expect(page.getByTestId('diff-status')).toContainText('folded into (other)');
  await expect(page.getByTestId('diff-timing')).toContainText('render');
  // The same samples on both sides: every change in the table is zero.
  await expect(page.getByTestId('delta-total').first()).toHaveText('0');
  await expect(page.getByTestId('diff-row')).toHaveCount(50);
  await page.getByRole('button', { name: /^Show all \d+ rows$/ }).click();
  const deltas = await page.getByTestId('delta-total').allTextContents();
  expect(deltas.length).toBeGreaterThan(100);
  expect(new Set(deltas)).toEqual(new Set(['0']));
  await page.getByRole('button', { name: 'Show the first 50' }).click();
  const timings = await page.evaluate(() =>
    ['diff:fetch', 'diff:decode', 'diff:render', 'diff:draw'].map((n) => `${n} ${performance.getEntriesByName(n, 'measure').map((m) => Math.round(m.duration)).join('/')}`),
  );
  console.log(`50k-node diff, ms: ${timings.join(', ')}`);
  await saveScreenshot(page, 'diff-corpus.png');

  // Zoom into a frame whose detail the budget folded away: its subtree is fetched in full.
  const whole = await request.get(`/api/diff?a.captures=${a.id}&b.captures=${b.id}`);
  expect(whole.ok()).toBe(true);
  const folded = foldedFramePath(((await whole.json()) as { root: Frame }).root);
  expect(folded.length).toBeGreaterThan(1);
  const focused = page.waitForRequest((r) => r.url().includes('/api/diff?') && r.url().includes('focus='));
  await page.goto(`${page.url()}&${folded.map((name) => `zoom=${encodeURIComponent(name)}`).join('&')}`);
  const asked = new URL((await focused).url()).searchParams.get('focus');
  expect(JSON.parse(asked ?? '[]')).toEqual(folded);
  await expect(page.getByTestId('diff-status')).toContainText(`full detail loaded under ${folded.at(-1) ?? ''}`, { timeout: 60_000 });
  await saveScreenshot(page, 'diff-corpus-zoomed.png');
});

interface Frame {
  name: string;
  kind: string;
  truncated?: boolean;
  children: Frame[];
}

/** The path to the first frame (depth first) with a folded "(other)" child: detail the budget cut. */
function foldedFramePath(root: Frame): string[] {
  const stack: { node: Frame; path: string[] }[] = root.children.map((c) => ({ node: c, path: [c.name] }));
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.node.children.some((c) => c.kind === 'other') && item.path.length > 1) return item.path;
    for (const c of item.node.children) if (c.kind !== 'other') stack.push({ node: c, path: [...item.path, c.name] });
  }
  return [];
}
