/**
 * The correlated timeline in a real browser: a real `perf record -k CLOCK_MONOTONIC` capture aligned by
 * its clock readings, a scheduler trace, a syscall trace and a metrics CSV written here, all on one
 * host. The timeline draws CPU, off-CPU and syscall tracks and the metric tracks that move most,
 * hover reads their values, a brush writes `from`/`to`, and the flame graph then shows fewer samples
 * than before; an annotation is pinned by clicking.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page, type Response } from '@playwright/test';
import { artifacts, corpus, createIncident, measureCount, recordCspViolations, saveScreenshot, uploadCapture } from './helpers';

const CPU = path.join(corpus, 'captures', 'clockmono', 'cpu5s_clockmono.perf.txt.gz');
/** realtime - monotonic, read beside the recording (cpu5s_clockmono.clock.jsonl). */
const CPU_OFFSET = '+1795297732.388439s';
/** Wall-clock seconds of perf time 508 s on that clock: the other captures start here. */
const START_S = 1795297732.388439 + 508;
const HOST = 'e2e-tl';
/** CPU samples, off-CPU time, syscall latency, and the eight metric tracks that move most (trackDefaults.ts). */
const DEFAULT_TRACKS = 3 + 8;

function schedCapture(): Buffer {
  const sw = (comm: string, tid: number, cpu: number, t: number, state: string, next: string, nextTid: number) =>
    `${comm} ${tid} [${String(cpu).padStart(3, '0')}] ${t.toFixed(6)}: sched:sched_switch: prev_comm=${comm} prev_pid=${tid} ` +
    `prev_prio=120 prev_state=${state} ==> next_comm=${next} next_pid=${nextTid} next_prio=120\n` +
    '\tffffffff81000000 __schedule+0x1 ([kernel.kallsyms])\n\tffffffff81000001 schedule+0x1 ([kernel.kallsyms])\n\n';
  let text = '';
  // A writer blocked in D for a second at a time, a waiter sleeping in S: perf times 508.2 s to 512 s.
  for (let t = 508.2; t < 512; t += 1.2) {
    text += sw('writer', 700, 0, t, 'D', 'waiter', 701);
    text += sw('waiter', 701, 0, t + 1, 'S', 'writer', 700);
  }
  return Buffer.from(text);
}

function traceCapture(): Buffer {
  let text = '';
  for (let i = 0; i < 400; i += 1) {
    const ms = i * 10;
    const dur = i % 50 === 0 ? 40 + i / 10 : 0.02;
    text += `${ms.toFixed(3).padStart(10)} (${dur.toFixed(3).padStart(6)} ms): app/900 futex(uaddr: 0x1000, op: WAIT) = 0\n`;
  }
  return Buffer.from(text);
}

/** Long-form CSV, 100 ms apart: free memory saws down and refills; seventeen application series, one constant. */
function metricsCsv(): Buffer {
  const names = ['mem_free_mib', 'naks', 'socket_buffer_bytes', 'request_latency_ms', ...Array.from({ length: 13 }, (_, i) => `queue_depth_${i}`)];
  let text = 'ts,name,value\n';
  for (let i = 0; i < 50; i += 1) {
    const ms = Math.round(START_S * 1000) + i * 100;
    names.forEach((name, k) => {
      const value = name === 'mem_free_mib' ? 4000 - (i % 10) * 300 : (i * (k + 1)) % 17;
      text += `${ms},${name},${value}\n`;
    });
  }
  return Buffer.from(text);
}

async function flameResponse(page: Page, open: () => Promise<void>): Promise<{ url: URL; total: number }> {
  const waiting = page.waitForResponse((r: Response) => r.url().includes('/api/flame?') && !r.url().includes('focus='), { timeout: 60_000 });
  await open();
  const response = await waiting;
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { total_samples: number };
  return { url: new URL(response.url()), total: body.total_samples };
}

async function measures(page: Page, name: string): Promise<number[]> {
  return page.evaluate((n) => performance.getEntriesByName(n, 'measure').map((m) => Math.round(m.duration)), name);
}

test('timeline: tracks drawn, hover, brush moves the flame graph, annotate', async ({ page, request }) => {
  test.setTimeout(240_000);
  const incident = await createIncident(request, `timeline e2e ${Date.now()}`);
  const cpu = await uploadCapture(request, incident, CPU, { host: HOST, offset: CPU_OFFSET });
  await uploadCapture(request, incident, schedCapture(), { host: HOST, offset: CPU_OFFSET, filename: 'sched.txt' });
  await uploadCapture(request, incident, traceCapture(), { host: HOST, offset: `+${START_S.toFixed(6)}s`, filename: 'trace.txt' });
  await uploadCapture(request, incident, metricsCsv(), { host: HOST, filename: 'app-metrics.csv' });
  expect(cpu.time_start).not.toBeNull();

  const cspViolations = await recordCspViolations(page);
  // No incident: an empty state that leads to the incident list.
  await page.goto('/timeline');
  await expect(page.getByText('No incident selected')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Choose an incident' })).toHaveAttribute('href', '/');

  await page.goto(`/timeline?incident=${incident}`);
  const tracks = page.getByTestId('timeline-track');
  await expect.poll(() => tracks.count(), { timeout: 30_000 }).toBe(DEFAULT_TRACKS);
  await expect(page.getByTestId('timeline-host')).toContainText(HOST);
  await expect.poll(() => measureCount(page, 'timeline:render'), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId('timeline-timing')).toHaveText(/^render \d+ ms$/);
  const cpuCanvas = page.locator(`canvas[data-track="cpu:${HOST}:cpu-clock"]`);
  await expect(cpuCanvas).toHaveCount(1);
  // Something was painted on the CPU track.
  const painted = await cpuCanvas.evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) n += 1;
    return n;
  });
  expect(painted).toBeGreaterThan(500);
  await saveScreenshot(page, 'timeline-tracks.png');

  // Hover: a crosshair and a readout with every track's value at that instant.
  const overlay = page.getByTestId('timeline-overlay');
  const box = await overlay.boundingBox();
  if (!box) throw new Error('no overlay');
  await page.mouse.move(box.x + box.width * 0.5, box.y + 40);
  const tip = page.getByTestId('timeline-tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('UTC');
  await expect(tip).toContainText('CPU samples · cpu-clock');
  await expect(tip).toContainText(/samples\s+[\d,]+ \([\d.,]+\/s\)/);
  await expect(tip).toContainText('naks');
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'timeline-hover.png'), fullPage: true }); // the pointer stays for the tooltip

  // The flame graph of the whole incident, for comparison.
  const before = await flameResponse(page, () => page.getByRole('link', { name: 'Flame graph' }).click());
  expect(before.total).toBe(9991);
  expect(before.url.searchParams.get('start')).toBeNull();
  await page.goBack();
  await expect.poll(() => tracks.count(), { timeout: 30_000 }).toBe(DEFAULT_TRACKS);

  // Brush the second fifth of the chart: from/to land in the URL and the new range is drawn.
  const brushes = await measureCount(page, 'timeline:brush');
  const box2 = await overlay.boundingBox();
  if (!box2) throw new Error('no overlay');
  await page.mouse.move(box2.x + box2.width * 0.2, box2.y + 30);
  await page.mouse.down();
  await page.mouse.move(box2.x + box2.width * 0.3, box2.y + 60, { steps: 5 });
  await expect(page.getByTestId('timeline-brush')).toBeVisible();
  await page.mouse.move(box2.x + box2.width * 0.4, box2.y + 90, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => new URL(page.url()).searchParams.get('from')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
  const from = new URL(page.url()).searchParams.get('from') ?? '';
  const to = new URL(page.url()).searchParams.get('to') ?? '';
  expect(Date.parse(to)).toBeGreaterThan(Date.parse(from));
  await expect.poll(() => measureCount(page, 'timeline:brush'), { timeout: 30_000 }).toBeGreaterThan(brushes);
  await expect(page.getByTestId('timeline-timing')).toHaveText(/^brush \d+ ms$/);
  await saveScreenshot(page, 'timeline-brushed.png');

  // Every other view follows: the flame graph asks for that range and holds fewer samples.
  const after = await flameResponse(page, () => page.getByRole('link', { name: 'Flame graph' }).click());
  expect(after.url.searchParams.get('start')).toBe(from);
  expect(after.url.searchParams.get('end')).toBe(to);
  expect(after.total).toBeGreaterThan(0);
  expect(after.total).toBeLessThan(before.total);
  await page.waitForSelector('[data-testid="flame-chart"] svg');
  await saveScreenshot(page, 'timeline-flame-follows.png');
  await page.goBack();
  await expect.poll(() => tracks.count(), { timeout: 30_000 }).toBe(DEFAULT_TRACKS);

  // Keyboard zoom: + narrows the range, 0 goes back to the whole incident.
  const span = () => {
    const p = new URL(page.url()).searchParams;
    return Date.parse(p.get('to') ?? '') - Date.parse(p.get('from') ?? '');
  };
  const brushed = span();
  await page.locator('body').press('+');
  await expect.poll(span).toBeLessThan(brushed);
  await page.locator('body').press('0');
  await expect.poll(() => new URL(page.url()).searchParams.has('from')).toBe(false);

  // Annotate: the button, a click at a time, a note; it is pinned on the axis as text.
  const note = `set LD_BIND_NOW=y <b>${Date.now()}</b>`;
  await page.getByRole('button', { name: 'Annotate' }).click();
  const box3 = await overlay.boundingBox();
  if (!box3) throw new Error('no overlay');
  await page.mouse.click(box3.x + box3.width * 0.6, box3.y + 50);
  const form = page.getByTestId('annotation-form');
  await expect(form).toBeVisible();
  await form.getByLabel('Note').fill(note);
  await form.getByRole('button', { name: 'Pin note' }).click();
  await expect(form).toBeHidden();
  const pin = page.getByTestId('annotation-pin').filter({ hasText: 'LD_BIND_NOW' });
  await expect(pin).toHaveText(note);
  await expect(page.locator('.tl-pin b')).toHaveCount(0); // shown as text, never as HTML
  await pin.click();
  await expect(page.getByTestId('annotation-detail')).toContainText(note);
  await saveScreenshot(page, 'timeline-annotated.png');

  // The timeline as one PNG for the postmortem: the track canvases composed into one picture.
  await page.getByTestId('share-button').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
  expect(download.suggestedFilename()).toMatch(/^timeline-incident-\d+\.png$/);
  const png = fs.readFileSync(await download.path());
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  expect(png.length).toBeGreaterThan(10_000);
  fs.writeFileSync(path.join(artifacts, 'timeline-export.png'), png);
  await page.getByTestId('share-button').click();

  const timings = {
    render: await measures(page, 'timeline:render'),
    brush: await measures(page, 'timeline:brush'),
    zoom: await measures(page, 'timeline:zoom'),
    fetch: await measures(page, 'timeline:fetch'),
    tracks: await tracks.count(),
  };
  console.log(`timeline timings (ms): ${JSON.stringify(timings)}`);
  expect(await cspViolations(), 'the timeline works under the console\'s Content-Security-Policy').toEqual([]);
});
