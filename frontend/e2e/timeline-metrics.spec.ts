/**
 * The timeline of an incident with imported metrics: two hosts' Prometheus range queries, 54 series
 * in all (a few that stall, many that barely move, constants, a counter), beside CPU samples and a
 * scheduler trace. By default the CPU and off-CPU tracks are drawn with a handful of metric tracks,
 * the ones that move most; the others are one click away. Hovering the bottom-most track keeps the
 * readout inside the window and off the pointer, with few tracks and with all of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { artifacts, createIncident, saveScreenshot, uploadCapture } from './helpers';

/** 2026-11-21T08:00:00Z; perf time 100 s lands there with PERF_OFFSET. */
const T0 = Date.parse('2026-11-21T08:00:00Z') / 1000;
const PERF_OFFSET = '+1795247900s';
const HOST = 'web-1';
const OTHER_HOST = 'web-2';
/** MAX_DEFAULT_METRICS in trackDefaults.ts. */
const MAX_DEFAULT_METRICS = 8;
const SERIES_PER_HOST = 27;

type Series = [Record<string, string>, [number, number][]];

/** Every 10 s for 10 minutes. */
const STEPS = Array.from({ length: 61 }, (_, i) => i * 10);

/**
 * 27 series per host. `stall_seconds` sits at 0 and spikes in minute 4; `pool_wait{pool=…}` saws by
 * more or less of its level (pool 0 the least); `queue_depth{queue=…}` hardly moves; `requests_total`
 * is a counter; `build_info` and `up` never change.
 */
function hostSeries(spikeAt: number): Series[] {
  const series: Series[] = [];
  series.push([{ __name__: 'stall_seconds' }, STEPS.map((t) => [t, t >= spikeAt && t < spikeAt + 40 ? 4 + t / 100 : 0])]);
  for (let p = 0; p < 12; p += 1) {
    series.push([{ __name__: 'pool_wait', pool: String(p).padStart(2, '0') }, STEPS.map((t, i) => [t, 100 - p * 6 * ((i % 6) / 5)])]);
  }
  for (let q = 0; q < 10; q += 1) {
    series.push([{ __name__: 'queue_depth', queue: String(q) }, STEPS.map((t, i) => [t, 500 + (i % 3) + q])]);
  }
  let total = 0;
  series.push([{ __name__: 'requests_total', job: 'api' }, STEPS.map((t) => [t, (total += 2000)])]);
  series.push([{ __name__: 'build_info', version: '1.4.2' }, STEPS.map((t) => [t, 1])]);
  series.push([{ __name__: 'up' }, STEPS.map((t) => [t, 1])]);
  series.push([{ __name__: 'cache_hit_ratio' }, STEPS.map((t, i) => [t, 0.9 - (i % 4) * 0.05])]);
  return series;
}

function rangeQuery(series: Series[]): Buffer {
  const result = series.map(([metric, points]) => ({ metric, values: points.map(([t, v]) => [T0 + t, String(v)]) }));
  return Buffer.from(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
}

/** Two busy processes sampled for 4 s from perf time 100 s. */
function cpuCapture(): Buffer {
  let text = '';
  for (let i = 0; i < 400; i += 1) {
    const [comm, pid] = i % 3 === 0 ? ['nginx', 300] : ['api', 400];
    text += `${comm} ${pid}/${pid} [000] ${(100 + i * 0.01).toFixed(6)}: 1000000 cpu-clock:\n\t    1000 work_${comm} (/usr/bin/${comm})\n\t    2000 main (/usr/bin/${comm})\n\n`;
  }
  return Buffer.from(text);
}

/** A writer blocked in D and a waiter in S, alternating from perf time 100.2 s. */
function schedCapture(): Buffer {
  const sw = (comm: string, tid: number, t: number, state: string, next: string, nextTid: number) =>
    `${comm} ${tid} [000] ${t.toFixed(6)}: sched:sched_switch: prev_comm=${comm} prev_pid=${tid} prev_prio=120 ` +
    `prev_state=${state} ==> next_comm=${next} next_pid=${nextTid} next_prio=120\n` +
    '\tffffffff81000000 __schedule+0x1 ([kernel.kallsyms])\n\tffffffff81000001 schedule+0x1 ([kernel.kallsyms])\n\n';
  let text = '';
  for (let t = 100.2; t < 104; t += 1.2) text += sw('writer', 700, t, 'D', 'waiter', 701) + sw('waiter', 701, t + 1, 'S', 'writer', 700);
  return Buffer.from(text);
}

async function openTimeline(page: Page, incident: number, search = ''): Promise<void> {
  await page.goto(`/timeline?incident=${incident}${search}`);
  await expect(page.getByTestId('timeline-timing')).toBeVisible({ timeout: 30_000 });
}

const metricTracks = (page: Page) => page.locator('canvas[data-testid="timeline-track"][data-track^="m:"]');
const allTracks = (page: Page) => page.getByTestId('timeline-track');

/**
 * Scroll to the bottom of the page, hover the bottom-most track at `across` of its width, and check
 * that the readout lies inside the viewport and does not cover the pointer.
 */
async function hoverBottomTrack(page: Page, across: number): Promise<{ x: number; y: number }> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const last = allTracks(page).last();
  const box = await last.boundingBox();
  if (!box) throw new Error('no bottom track');
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('no viewport');
  // The bottom-most track is in view, near the bottom of the window.
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  expect(box.y).toBeGreaterThan(viewport.height / 2);
  const pointer = { x: box.x + box.width * across, y: box.y + box.height / 2 };
  await page.mouse.move(pointer.x, pointer.y, { steps: 3 });
  const tip = page.getByTestId('timeline-tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('UTC');
  const tipBox = await tip.boundingBox();
  if (!tipBox) throw new Error('no readout');
  expect(tipBox.x).toBeGreaterThanOrEqual(0);
  expect(tipBox.y).toBeGreaterThanOrEqual(0);
  expect(tipBox.x + tipBox.width).toBeLessThanOrEqual(viewport.width);
  expect(tipBox.y + tipBox.height).toBeLessThanOrEqual(viewport.height);
  const covers =
    pointer.x >= tipBox.x && pointer.x <= tipBox.x + tipBox.width && pointer.y >= tipBox.y && pointer.y <= tipBox.y + tipBox.height;
  expect(covers, `the readout ${JSON.stringify(tipBox)} covers the pointer at ${JSON.stringify(pointer)}`).toBe(false);
  return pointer;
}

/** The viewport as the person sees it, pointer and readout included (a full-page shot would re-lay it out). */
async function viewportShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, name) });
}

test.describe.serial('timeline with imported metrics', () => {
  let incident = 0;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    incident = await createIncident(request, `timeline metrics e2e ${Date.now()}`);
    await uploadCapture(request, incident, cpuCapture(), { host: HOST, offset: PERF_OFFSET, filename: 'cpu.txt' });
    await uploadCapture(request, incident, schedCapture(), { host: HOST, offset: PERF_OFFSET, filename: 'sched.txt' });
    await uploadCapture(request, incident, rangeQuery(hostSeries(240)), { host: HOST, filename: 'web1-prometheus.json' });
    await uploadCapture(request, incident, rangeQuery(hostSeries(300)), { host: OTHER_HOST, filename: 'web2-prometheus.json' });
  });

  test('a handful of metric tracks by default, the others one click away', async ({ page }) => {
    await openTimeline(page, incident);
    const listed = await page.getByTestId('track-picker').locator('input[type="checkbox"]').count();
    expect(listed).toBe(2 + 2 * SERIES_PER_HOST); // CPU and off-CPU on web-1, and every series

    // CPU, off-CPU and at most MAX_DEFAULT_METRICS metric tracks: the ones that move most.
    await expect(metricTracks(page)).toHaveCount(MAX_DEFAULT_METRICS);
    await expect(allTracks(page)).toHaveCount(2 + MAX_DEFAULT_METRICS);
    await expect(page.locator(`canvas[data-track="cpu:${HOST}:cpu-clock"]`)).toHaveCount(1);
    await expect(page.locator(`canvas[data-track="offcpu:${HOST}"]`)).toHaveCount(1);
    const labels = page.getByTestId('timeline-label').locator('.tl-label__name');
    await expect(labels).toContainText(['pool_wait{pool=11}', 'stall_seconds']);
    const shown = await labels.allTextContents();
    for (const quiet of ['build_info{version=1.4.2}', 'up', 'queue_depth{queue=0}', 'requests_total{job=api}']) expect(shown).not.toContain(quiet);
    const more = page.getByTestId('more-metrics');
    await expect(more).toContainText(`${MAX_DEFAULT_METRICS} metric tracks shown`);
    await expect(more).toContainText(`${2 * SERIES_PER_HOST - MAX_DEFAULT_METRICS} more are in the track list`);
    await saveScreenshot(page, 'timeline-metrics-defaults.png');

    // One of them alone, from the track list.
    await page.getByTestId('track-picker').locator('summary').click();
    // click, not check(): the box follows the address, which the router updates in a transition, so
    // check()'s immediate look at the box can come too early; the assertion below waits for it.
    const buildInfo = page.getByTestId('track-picker').getByRole('group', { name: HOST }).getByLabel('build_info{version=1.4.2}');
    await buildInfo.click();
    await expect(buildInfo).toBeChecked();
    await expect(metricTracks(page)).toHaveCount(MAX_DEFAULT_METRICS + 1);
    await expect(more).toHaveCount(0); // tracks are picked now: nothing left out by default
    await page.getByTestId('track-picker').getByRole('button', { name: 'Defaults' }).click();
    await expect(metricTracks(page)).toHaveCount(MAX_DEFAULT_METRICS);
    await page.getByTestId('track-picker').locator('summary').click();

    // All of them, with one click.
    await more.getByRole('button', { name: `Show all ${2 * SERIES_PER_HOST - MAX_DEFAULT_METRICS}` }).click();
    await expect(metricTracks(page)).toHaveCount(2 * SERIES_PER_HOST, { timeout: 30_000 });
    await expect(allTracks(page)).toHaveCount(2 + 2 * SERIES_PER_HOST);
    await expect.poll(() => new URL(page.url()).searchParams.get('tracks')?.split(',').length).toBe(2 + 2 * SERIES_PER_HOST);
    // Fifty-six rows down, each track's label still stands level with its canvas.
    const lastLabel = await page.getByTestId('timeline-label').last().boundingBox();
    const lastCanvas = await allTracks(page).last().boundingBox();
    expect(lastLabel && lastCanvas && Math.abs(lastLabel.y - lastCanvas.y)).toBeLessThan(1);
    expect(lastLabel && lastCanvas && Math.abs(lastLabel.y + lastLabel.height - (lastCanvas.y + lastCanvas.height))).toBeLessThan(1);
    await saveScreenshot(page, 'timeline-metrics-all.png');
  });

  test('the hover readout stays inside the window and off the pointer on the bottom-most track', async ({ page }) => {
    // The default tracks: a short chart, scrolled so its last track is near the bottom of the window.
    await openTimeline(page, incident);
    await expect(metricTracks(page)).toHaveCount(MAX_DEFAULT_METRICS);
    await hoverBottomTrack(page, 0.3);
    await viewportShot(page, 'timeline-hover-bottom.png');
    await hoverBottomTrack(page, 0.95); // near the right edge too

    // Every track: a readout of 56 tracks, taller than the window.
    await page.getByTestId('more-metrics').getByRole('button', { name: /^Show all/ }).click();
    await expect(metricTracks(page)).toHaveCount(2 * SERIES_PER_HOST, { timeout: 30_000 });
    await expect(page.getByTestId('timeline-timing')).toBeVisible({ timeout: 30_000 });
    await hoverBottomTrack(page, 0.5);
    await expect(page.getByTestId('timeline-tooltip')).toContainText(`${OTHER_HOST} · up`);
    await viewportShot(page, 'timeline-hover-bottom-all.png');
    await hoverBottomTrack(page, 0.97);
  });
});
