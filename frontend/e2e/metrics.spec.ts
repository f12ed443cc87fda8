/**
 * The metrics view as an engineer reads it: an incident opened without naming captures lists every
 * series by host and capture; a counter is drawn as its rate with a toggle to raw; the same counter on
 * two hosts is told apart in the legend; latencies get p50/p90/p99/max; a healthy and an impacted run
 * recorded a day apart are compared aligned on their capture start; y labels carry units unclipped.
 * Captures are Prometheus range-query results written here with known values.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { artifacts, createIncident, recordCspViolations, saveScreenshot, uploadCapture } from './helpers';

const T0 = Date.parse('2026-11-21T08:00:00Z') / 1000;
const DAY = 86_400;

type Series = [Record<string, string>, [number, number][]];

function rangeQuery(series: Series[], base: number): Buffer {
  const result = series.map(([metric, points]) => ({ metric, values: points.map(([t, v]) => [base + t, String(v)]) }));
  return Buffer.from(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
}

/** A counter scraped every 10 s for 10 min that restarts once; about 20 requests a second. */
function requests(scale: number, resetAt: number | null): [number, number][] {
  const out: [number, number][] = [];
  let value = 0;
  for (let i = 0; i <= 60; i += 1) {
    value = i === resetAt ? 37 : value + scale * (180 + (i % 5) * 10);
    out.push([i * 10, value]);
  }
  return out;
}

/**
 * One latency a second for 10 min: 3 to 6 ms with a slow request now and then (a fixed pseudo-random
 * sequence); when impacted, a stall from minute 4 to minute 6 makes one request in three slow.
 */
function latencies(impacted: boolean): [number, number][] {
  let seed = impacted ? 7 : 3;
  const next = (): number => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  return Array.from({ length: 600 }, (_, i): [number, number] => {
    const stalled = impacted && i >= 240 && i < 360;
    const slow = next() < (stalled ? 0.33 : 0.03);
    return [i, Number((slow ? 40 + next() * (stalled ? 200 : 60) : 3 + next() * 3).toFixed(2))];
  });
}

const job = { job: 'api' };

async function yTickLabels(chart: Locator): Promise<string[]> {
  return chart.locator('.axis--y .tick text').allTextContents();
}

/** Every y tick label lies inside the chart's SVG (nothing clipped at the left edge). */
async function yLabelsInside(chart: Locator): Promise<boolean> {
  const svg = await chart.boundingBox();
  if (!svg) return false;
  const boxes = await chart.locator('.axis--y .tick text').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left));
  return boxes.length > 0 && boxes.every((left) => left >= svg.x);
}

test('metrics: labels by host and capture, rates, percentiles, aligned runs', async ({ page, request }) => {
  test.setTimeout(240_000);
  const incident = await createIncident(request, `metrics e2e ${Date.now()}`);
  const healthy = await uploadCapture(
    request,
    incident,
    rangeQuery(
      [
        [{ __name__: 'requests_total', ...job }, requests(1, 30)],
        [{ __name__: 'request_latency_ms' }, latencies(false)],
      ],
      T0,
    ),
    { host: 'web-1', filename: 'healthy.json' },
  );
  const other = await uploadCapture(request, incident, rangeQuery([[{ __name__: 'requests_total', ...job }, requests(2, null)]], T0), {
    host: 'web-2',
    filename: 'web2.json',
  });
  const impacted = await uploadCapture(request, incident, rangeQuery([[{ __name__: 'request_latency_ms' }, latencies(true)]], T0 + DAY), {
    host: 'web-1',
    filename: 'impacted.json',
  });

  const csp = await recordCspViolations(page);

  // Nothing chosen at all: a way to an incident, not a dead end.
  await page.goto('/metrics');
  await expect(page.getByText('Choose an incident')).toBeVisible();
  const empty = await createIncident(request, `metrics e2e empty ${Date.now()}`);
  await page.goto(`/metrics?incident=${empty}`);
  await expect(page.getByText(`Incident #${empty} has no metric series yet`)).toBeVisible();
  await expect(page.getByRole('link', { name: `Open incident #${empty}` })).toHaveAttribute('href', `/incidents/${empty}`);

  // The incident alone: every series of every capture, each named by host and capture.
  await page.goto(`/metrics?incident=${incident}`);
  await expect(page.getByText('No captures selected')).toHaveCount(0);
  const list = page.getByRole('complementary', { name: 'Series' });
  await expect(list.getByText(`web-1 · #${healthy.id} healthy.json · job=api`)).toBeVisible();
  await expect(list.getByText(`web-2 · #${other.id} web2.json · job=api`)).toBeVisible();
  await expect(list.getByText(`web-1 · #${impacted.id} impacted.json`)).toBeVisible();
  await expect(list.getByText('(no labels)')).toHaveCount(0);

  // One counter, then the same one from every host: two legend entries told apart by host.
  await list.getByText(`web-1 · #${healthy.id} healthy.json · job=api`).click();
  await list.getByRole('button', { name: 'Overlay requests_total{job=api} from every host and capture' }).first().click();
  const legend = page.getByTestId('metric-legend');
  await expect(legend.locator('.legend__title')).toHaveText([
    `web-1 · #${healthy.id} healthy.json · requests_total{job=api}`,
    `web-2 · #${other.id} web2.json · requests_total{job=api}`,
  ]);
  await expect(legend).toContainText('rate per second (counter, 1 reset)');
  const chart = page.locator('svg.metric-chart').first();
  await expect(chart).toHaveAttribute('aria-label', 'Metric chart (/s)');
  await expect.poll(() => yTickLabels(chart)).toContain('0/s');
  expect((await yTickLabels(chart)).every((l) => l.endsWith('/s'))).toBe(true);
  expect(await yLabelsInside(chart)).toBe(true);
  await saveScreenshot(page, 'metrics-rates.png');

  // Raw values: the cumulative count, no longer per second.
  await page.getByRole('radio', { name: 'Raw values' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('counters')).toBe('raw');
  await expect(legend).toContainText('raw cumulative values');
  await expect(chart).toHaveAttribute('aria-label', 'Metric chart (value)');
  await expect.poll(async () => (await yTickLabels(chart)).some((l) => l.endsWith('k'))).toBe(true);
  await page.getByRole('radio', { name: 'Rate per second' }).click();
  await expect(legend).toContainText('rate per second');

  // A healthy and an impacted run a day apart: offered, then drawn aligned on their capture start.
  await page.goto(`/metrics?incident=${incident}`);
  await list.getByText(`web-1 · #${healthy.id} healthy.json`, { exact: true }).click();
  await list.getByText(`web-1 · #${impacted.id} impacted.json`, { exact: true }).click();
  await expect(page.getByRole('note')).toContainText('recorded at different times');
  await page.getByRole('button', { name: 'Align by capture start' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('x')).toBe('start');
  await expect(legend.locator('.legend__title')).toHaveText([
    `web-1 · #${healthy.id} healthy.json · request_latency_ms`,
    `web-1 · #${impacted.id} impacted.json · request_latency_ms`,
  ]);
  await expect(legend).toContainText('p50 · p90 · p99 · max per bucket');
  const latency = page.locator('svg.metric-chart').first();
  await expect(latency.locator('.line--p99')).toHaveCount(2);
  await expect(latency.locator('.axis--x .tick text').first()).toHaveText('+0 min');
  await expect(latency.locator('.axis-label').last()).toHaveText('since capture start');
  expect((await yTickLabels(latency)).every((l) => / (ms|s)$/.test(l))).toBe(true);
  expect(await yLabelsInside(latency)).toBe(true);

  // Hover: both runs' percentiles at the same offset.
  const box = await latency.boundingBox();
  if (!box) throw new Error('no chart');
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4);
  const readout = page.getByTestId('metric-readout');
  await expect(readout).toContainText('since capture start');
  await expect(readout.locator('.readout__row')).toHaveCount(2);
  await expect(readout).toContainText(/p50 [\d.]+ ms, p90 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms/);
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'metrics-aligned-hover.png'), fullPage: true }); // the pointer stays for the readout
  await saveScreenshot(page, 'metrics-aligned.png');

  expect(await csp()).toEqual([]);
});
