/**
 * The sub-second heatmap in a browser: a capture whose samples cluster in the first 20 ms of every
 * second shows one hot row; dragging over cells (and the keyboard) writes `from`/`to`/`within` into
 * the URL, and "Flame graph of these cells" opens a flame graph of exactly those slices.
 */
import { expect, test, type Page } from '@playwright/test';
import { artifacts, createIncident, measureCount, saveScreenshot, uploadCapture } from './helpers';

const T0 = 1_763_712_000; // 2025-11-21T08:00:00Z, where perf time 1000.0 lands
const PERF_BASE_S = 1000;
const SECONDS = 10;
const BURST = 20; // samples in the first 20 ms of each second
const SPREAD_MS = [100, 300, 500, 700, 900]; // one sample each, elsewhere in the second

function sample(second: number, offsetUs: number, frames: string[]): string {
  const time = `${PERF_BASE_S + second}.${String(offsetUs).padStart(6, '0')}`;
  const stack = frames.map((f, i) => `\t    ${(0x1000 + i).toString(16)} ${f} (/usr/bin/app)`).join('\n');
  return `app 42/42 [000] ${time}: 1000000 cpu-clock:\n${stack}\n\n`;
}

/** perf script text: a periodic flush at the top of every second over background work. */
function periodicCapture(): string {
  const parts: string[] = [];
  for (let s = 0; s < SECONDS; s += 1) {
    for (let i = 0; i < BURST; i += 1) parts.push(sample(s, i * 1000 + 500, ['flush', 'tick', 'main']));
    for (const ms of SPREAD_MS) parts.push(sample(s, ms * 1000 + 123, ['work', 'main']));
  }
  return parts.join('');
}

const iso = (second: number) => `${new Date(second * 1000).toISOString().slice(0, 19)}.000000Z`;

interface GridBox {
  x: number;
  y: number;
  left: number;
  top: number;
  cellW: number;
  cellH: number;
}

async function gridBox(page: Page): Promise<GridBox> {
  const grid = page.getByTestId('heatmap-grid');
  const box = await page.getByTestId('heatmap-canvas').boundingBox();
  if (!box) throw new Error('the heatmap canvas is not on the page');
  const num = async (name: string) => Number(await grid.getAttribute(name));
  return { x: box.x, y: box.y, left: await num('data-left'), top: await num('data-top'), cellW: await num('data-cell-w'), cellH: await num('data-cell-h') };
}

const cellCentre = (g: GridBox, col: number, row: number) => ({
  x: g.x + g.left + (col + 0.5) * g.cellW,
  y: g.y + g.top + (row + 0.5) * g.cellH,
});

/** Relative luminance (0 black, 1 white) of the middle of one cell, as the base canvas painted it. */
async function cellLuminance(page: Page, g: GridBox, col: number, row: number): Promise<number> {
  const x = g.left + (col + 0.5) * g.cellW;
  const y = g.top + (row + 0.5) * g.cellH;
  return page.locator('.heatmap-grid__base').evaluate(
    (canvas: HTMLCanvasElement, at) => {
      const ratio = canvas.width / canvas.clientWidth;
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      const [r = 0, gr = 0, b = 0] = ctx.getImageData(Math.round(at.x * ratio), Math.round(at.y * ratio), 1, 1).data;
      const lin = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(gr) + 0.0722 * lin(b);
    },
    { x, y },
  );
}

test('heatmap: hot row, drag to select, keyboard, flame graph of the cells', async ({ page, request }) => {
  const incident = await createIncident(request, `heatmap e2e ${Date.now()}`);
  await uploadCapture(request, incident, Buffer.from(periodicCapture()), {
    filename: 'periodic-flush.txt',
    format: 'perf-script',
    offset: `${T0 - PERF_BASE_S}s`,
  });

  await page.goto(`/heatmap?incident=${incident}`);
  const grid = page.getByTestId('heatmap-grid');
  await expect(grid).toHaveAttribute('data-columns', String(SECONDS));
  await expect(grid).toHaveAttribute('data-rows', '50');

  // Every hottest cell is the first row (0–20 ms) of some second, holding the whole burst.
  const hot = page.getByTestId('hot-cell');
  await expect(hot).toHaveCount(10);
  for (const cell of await hot.all()) await expect(cell).toHaveAttribute('data-row', '0');
  await expect(hot.first()).toContainText(`${BURST} samples`);
  await expect(hot.first()).toContainText('0–20 ms');
  await expect(page.getByTestId('heatmap-timing')).toBeVisible();
  expect(await measureCount(page, 'heatmap:render')).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('heatmap-status')).toContainText('total 250 samples');

  // Hover shows the cell's time, offsets and value as text.
  const g = await gridBox(page);
  const first = cellCentre(g, 0, 0);
  await page.mouse.move(first.x, first.y);
  await expect(page.getByTestId('heatmap-tip')).toContainText('2025-11-21 08:00:00 UTC');
  await expect(page.getByTestId('heatmap-tip')).toContainText('0–20 ms into the second');
  await expect(page.getByTestId('heatmap-tip')).toContainText(`${BURST} samples`);
  await saveScreenshot(page, 'heatmap-overview.png');

  // More samples, darker cell: the burst's cells are drawn darker than the one-sample cells, and the
  // legend's numbers run from the sparsest cell to the fullest.
  const burstLum = await cellLuminance(page, g, 0, 0);
  const spreadLum = await cellLuminance(page, g, 0, 5); // 100–120 ms: one sample
  expect(burstLum).toBeLessThan(spreadLum);
  await expect(page.getByTestId('heatmap-legend-tick')).toHaveText(['1 sample', '5', '10', `${BURST} samples`]);
  await expect(page.getByTestId('heatmap-legend')).toContainText('samples per cell · darker is more');
  await page.getByTestId('heatmap-legend').screenshot({ path: `${artifacts}/heatmap-legend.png` });

  // Drag over the first row of seconds 2..5.
  const from = cellCentre(g, 2, 0);
  const to = cellCentre(g, 5, 0);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
  await expect(page).toHaveURL(/within=0-20000/);
  let url = new URL(page.url());
  expect(url.searchParams.get('from')).toBe(iso(T0 + 2));
  expect(url.searchParams.get('to')).toBe(iso(T0 + 6));
  expect(url.searchParams.get('incident')).toBe(String(incident));
  await expect(grid).toHaveAttribute('data-selected', '2-5,0-0');
  const bar = page.getByTestId('heatmap-selection');
  await expect(bar).toContainText(`${4 * BURST} samples of ${4 * (BURST + SPREAD_MS.length)} samples in these seconds`);
  const diff = new URL((await page.getByTestId('heatmap-diff-link').getAttribute('href')) ?? '', page.url());
  expect(diff.pathname).toBe('/diff');
  expect(diff.searchParams.get('b.within')).toBe('0-20000');
  expect(diff.searchParams.get('a.within')).toBe('!0-20000');
  expect(diff.searchParams.get('a.from')).toBe(iso(T0 + 2));
  await saveScreenshot(page, 'heatmap-selected.png');

  // Esc clears; the keyboard selects again: cursor at the top-left, move right, extend with shift.
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/within=/);
  await expect(bar).toBeHidden();
  await page.getByTestId('heatmap-canvas').focus();
  await page.keyboard.press('ArrowRight'); // shows the cursor on the first cell
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/within=0-20000/);
  url = new URL(page.url());
  expect(url.searchParams.get('from')).toBe(iso(T0 + 1));
  expect(url.searchParams.get('to')).toBe(iso(T0 + 4));

  // The flame graph of these cells holds the periodic flush and none of the background work.
  await page.getByTestId('heatmap-flame-link').click();
  await expect(page).toHaveURL(/\/flame\?/);
  url = new URL(page.url());
  expect(url.searchParams.get('within')).toBe('0-20000');
  expect(url.searchParams.get('from')).toBe(iso(T0 + 1));
  await expect(page.getByTestId('selection-within')).toContainText('0–20 ms of every second');
  const chart = page.locator('[data-testid="flame-chart"]');
  await expect(chart.locator('g.frame[name="flush"]').first()).toBeVisible();
  await expect(chart.locator('g.frame[name="work"]')).toHaveCount(0);
  await expect(page.locator('.flame-status')).toContainText(`${3 * BURST} samples`);
  await saveScreenshot(page, 'heatmap-flame.png');

  // Back on the heatmap: fewer rows still put the burst in the first row; a stream the capture
  // lacks says how to record it.
  await page.goBack();
  await expect(grid).toHaveAttribute('data-selected', '1-3,0-0');
  await page.getByLabel('Rows per second').selectOption('10');
  await expect(grid).toHaveAttribute('data-rows', '10');
  await expect(hot.first()).toHaveAttribute('data-row', '0');
  await expect(hot.first()).toContainText(`${BURST} samples`);
  await expect(hot.first()).toContainText('0–100 ms');
  await saveScreenshot(page, 'heatmap-rows10.png');
  await page.goto(`/heatmap?incident=${incident}&stream=syscall`);
  await expect(page.getByText('No syscall events in these captures — record with perf trace')).toBeVisible();
  await saveScreenshot(page, 'heatmap-empty-stream.png');
  await page.getByRole('button', { name: 'Show CPU samples' }).click();
  await expect(grid).toHaveAttribute('data-columns', String(SECONDS));
});
