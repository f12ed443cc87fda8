/**
 * A 100,000-frame stack and frame names holding control characters, markup and bidi overrides, as
 * a person meets them: the flame graph draws the first levels and says what it folded, a click on
 * "(deeper)" loads the next ones, the diff does the same, and the SVG and PNG exports still work.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createIncident, saveScreenshot, uploadCapture } from './helpers';

test.describe.configure({ mode: 'serial' });

const DEPTH = 100_000;
/** The server's depth budget (flame/router.py DEFAULT_MAX_DEPTH): levels below the shown frame. */
const MAX_DEPTH = 256;
const DEEP_FRAMES = ['main', 'dive', ...Array.from({ length: DEPTH - 2 }, (_, i) => `f${i}`)];

/** Names no XML file may hold as they are, beside markup and a right-to-left override. */
const HOSTILE = ['ctl\u0001bell\u0007esc\u001b[31m', 'a<b & "c" ]]> d', 'evil\u202egnp.exe', 'del\u007fc1\u0085'];

/** Collapsed stacks: ordinary ones first (a format is recognised from the head of the file). */
function capture(): Buffer {
  const lines = HOSTILE.map((name, i) => `app;main;${name} ${40 - i * 5}`);
  lines.push(`app;${DEEP_FRAMES.join(';')} 2`, 'db;main;query;scan 20');
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

const chartFrame = (page: Page, name: string) => page.locator(`[data-testid="flame-chart"] g.frame[name="${name}"]`);

let incident = 0;
let deep = 0;

test('a 100,000-frame stack: the first levels, what was folded, and the next levels on a click', async ({ page, request }) => {
  incident = await createIncident(request, `e2e deep stacks ${Date.now()}`);
  deep = (await uploadCapture(request, incident, capture(), { filename: 'deep.folded', host: 'deep-a' })).id;

  await page.goto(`/flame?incident=${incident}&captures=${deep}`);
  await expect(chartFrame(page, 'f0')).toHaveCount(1);
  await expect(page.getByTestId('deep-note')).toContainText(`frames deeper than ${MAX_DEPTH} levels folded into (deeper)`);
  // Level 256 below the root is f252 (app is level 1, main 2, dive 3); its children are folded.
  await expect(chartFrame(page, 'f252')).toHaveCount(1);
  await expect(chartFrame(page, 'f253')).toHaveCount(0);
  await saveScreenshot(page, 'deep-stack.png');

  const focused = page.waitForRequest((r) => r.url().includes('/api/flame?') && r.url().includes('focus='));
  await chartFrame(page, '(deeper)').click();
  const asked = JSON.parse(new URL((await focused).url()).searchParams.get('focus') ?? '[]') as string[];
  expect(asked).toEqual(['app', ...DEEP_FRAMES.slice(0, MAX_DEPTH - 1)]);
  // The zoomed frame's next 256 levels, under one stand-in for its outer ancestors.
  await expect(chartFrame(page, `f${252 + MAX_DEPTH}`)).toHaveCount(1);
  await expect(chartFrame(page, `f${253 + MAX_DEPTH}`)).toHaveCount(0);
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name^="⋯ "]')).toHaveCount(1);
  await expect(page.getByTestId('zoom-crumbs')).toContainText('frames ⋯');
  await saveScreenshot(page, 'deep-stack-zoomed.png');
});

test('SVG and PNG exports of frames named with control characters', async ({ page }) => {
  await page.goto(`/flame?incident=${incident}&captures=${deep}`);
  await expect(chartFrame(page, 'evil\u202egnp.exe')).toHaveCount(1);

  await page.getByTestId('share-button').click();
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const svg = fs.readFileSync(await svgDownload.path(), 'utf8');
  const parsed = await page.evaluate((markup) => {
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    return {
      errors: doc.getElementsByTagName('parsererror').length,
      labels: Array.from(doc.querySelectorAll('text')).map((t) => t.textContent),
    };
  }, svg);
  expect(parsed.errors).toBe(0);
  expect(parsed.labels).toEqual(
    expect.arrayContaining(['ctl\\x01bell\\x07esc\\x1B[31m', 'a<b & "c" ]]> d', 'evil\\u202Egnp.exe', 'del\\x7Fc1\\x85']),
  );
  const forbidden = Array.from(svg).filter((ch) => ch.charCodeAt(0) < 0x20 && !'\t\n\r'.includes(ch));
  expect(forbidden).toEqual([]);

  const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
  expect(pngDownload.suggestedFilename()).toMatch(/\.png$/);
  const png = fs.readFileSync(await pngDownload.path());
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.length).toBeGreaterThan(10_000);
  await expect(page.locator('.share__panel [role="status"]')).toHaveCount(0); // no "could not draw" message
});

test('the diff of a deep capture against itself folds the same levels', async ({ page, request }) => {
  const other = await uploadCapture(request, incident, capture(), { filename: 'deep-again.folded', host: 'deep-b' });
  await page.goto(`/diff?incident=${incident}&captures=${other.id}`);
  await page.getByTestId('preset-other-hosts').click();
  await expect(page.getByTestId('diff-deep-note')).toContainText('frames past the depth budget folded into (deeper)', { timeout: 60_000 });
  await expect(page.getByTestId('delta-total').first()).toHaveText('0');
  await expect(page.locator('[data-testid="diff-chart-b"] g.frame[name="(deeper)"]')).toHaveCount(1);
});
