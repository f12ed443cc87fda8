/**
 * How long each investigation view takes in the browser on a big incident, read from the
 * `performance.measure` entries the app records (from data arriving to drawn, and from a brush or
 * zoom to the new range drawn). Writes {view: [ms, ...]} to BENCH_OUT.
 *
 * Env: STALLSCOPE_URL, BENCH_INCIDENT, BENCH_CPU and BENCH_SCHED (comma-separated capture ids),
 * BENCH_OUT (a JSON file), BENCH_REPEAT (default 3).
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const incident = process.env.BENCH_INCIDENT ?? '';
const cpu = (process.env.BENCH_CPU ?? '').split(',').filter(Boolean);
const sched = process.env.BENCH_SCHED ?? '';
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
const figures: Record<string, number[]> = {};

async function lastMeasure(page: Page, name: string, after: number): Promise<number> {
  await expect
    .poll(() => page.evaluate((n) => performance.getEntriesByName(n, 'measure').length, name), { timeout: 300_000 })
    .toBeGreaterThan(after);
  return page.evaluate((n) => performance.getEntriesByName(n, 'measure').at(-1)?.duration ?? -1, name);
}

const count = (page: Page, name: string): Promise<number> =>
  page.evaluate((n) => performance.getEntriesByName(n, 'measure').length, name);

function record(view: string, ms: number): void {
  (figures[view] ??= []).push(Math.round(ms));
}

test.afterAll(() => {
  fs.writeFileSync(process.env.BENCH_OUT ?? 'bench-views.json', JSON.stringify(figures, null, 2));
});

test('views on a big incident', async ({ page }) => {
  const half = Math.max(1, Math.floor(cpu.length / 2));
  for (let i = 0; i < repeat; i += 1) {
    await page.goto(`/flame?incident=${incident}&captures=${cpu.join(',')}`);
    record('flame graph, full range: data to drawn', await lastMeasure(page, 'flame:render', 0));

    const a = cpu.slice(0, half).join(',');
    const b = (cpu.slice(half).length > 0 ? cpu.slice(half) : cpu).join(',');
    await page.goto(`/diff?incident=${incident}&a.captures=${a}&b.captures=${b}`);
    record('diff, full range: data to drawn', await lastMeasure(page, 'diff:render', 0));

    await page.goto(`/threads?incident=${incident}&captures=${sched}`);
    record('thread states: data to drawn', await lastMeasure(page, 'threads:render', 0));

    await page.goto(`/heatmap?incident=${incident}&captures=${cpu.join(',')}`);
    record('heatmap of CPU samples: data to drawn', await lastMeasure(page, 'heatmap:render', 0));

    await page.goto(`/timeline?incident=${incident}`);
    record('timeline: data to drawn', await lastMeasure(page, 'timeline:render', 0));
    const labels = await page.getByTestId('timeline-label').count();
    record('timeline: tracks drawn', labels);
    const overlay = page.getByTestId('timeline-overlay');
    const box = await overlay.boundingBox();
    if (box === null) throw new Error('no timeline overlay');
    const brushes = await count(page, 'timeline:brush');
    await page.mouse.move(box.x + box.width * 0.3, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, box.y + 60, { steps: 5 });
    await page.mouse.up();
    record('timeline: brush to redrawn', await lastMeasure(page, 'timeline:brush', brushes));
    for (const key of ['+', '+', '-']) {
      const zooms = await count(page, 'timeline:zoom');
      await page.keyboard.press(key);
      record('timeline: zoom key to redrawn', await lastMeasure(page, 'timeline:zoom', zooms));
    }
  }
});
