/**
 * The thread-state view in a browser: a scheduler capture with a known rhythm, the per-thread
 * shares, a click on a state, its blocking stacks as an off-CPU flame graph.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createIncident, measureCount, saveScreenshot, uploadCapture } from './helpers';

const IO_WAIT = ['__schedule', 'schedule', 'io_schedule', 'folio_wait_bit_common', 'filemap_fdatawait_range', 'file_write_and_wait_range', 'ext4_sync_file', 'do_fsync', '__x64_sys_fsync'];
const FUTEX = ['__schedule', 'schedule', 'futex_wait_queue', 'futex_wait', 'do_futex', '__x64_sys_futex'];
const PREEMPT = ['__schedule', 'preempt_schedule_irq', 'asm_sysvec_apic_timer_interrupt'];

function sample(comm: string, tid: number, cpu: number, t: number, event: string, args: string, frames: string[]): string {
  const head = `${comm} ${tid} [${String(cpu).padStart(3, '0')}] ${t.toFixed(6)}: ${event}: ${args}`;
  return [head, ...frames.map((f, i) => `\tffffffff81${i.toString(16).padStart(6, '0')} ${f}+0x1 ([kernel.kallsyms])`)].join('\n') + '\n\n';
}

const sw = (comm: string, tid: number, cpu: number, t: number, state: string, next: string, nextTid: number, frames: string[]) =>
  sample(comm, tid, cpu, t, 'sched:sched_switch', `prev_comm=${comm} prev_pid=${tid} prev_prio=120 prev_state=${state} ==> next_comm=${next} next_pid=${nextTid} next_prio=120`, frames);

const wake = (waker: string, wakerTid: number, cpu: number, t: number, comm: string, tid: number) =>
  sample(waker, wakerTid, cpu, t, 'sched:sched_waking', `comm=${comm} pid=${tid} prio=120 target_cpu=${String(cpu).padStart(3, '0')}`, ['try_to_wake_up']);

/**
 * Every 10 ms on one CPU: writer waits 4 ms in D (fsync), is runnable 1 ms behind main, runs 1 ms,
 * sleeps on a futex 1 ms, is runnable 1 ms, runs 2 ms: 40% D, 20% runnable, 30% running, 10% S.
 */
function schedCapture(iterations: number): string {
  const parts: string[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const t = 1 + i * 0.01;
    parts.push(sw('writer', 100, 1, t, 'D', 'swapper/1', 0, IO_WAIT));
    parts.push(sw('swapper/1', 0, 1, t + 0.001, 'R', 'main', 200, []));
    parts.push(wake('swapper/0', 0, 0, t + 0.004, 'writer', 100));
    parts.push(sw('main', 200, 1, t + 0.005, 'R+', 'writer', 100, PREEMPT));
    parts.push(sw('writer', 100, 1, t + 0.006, 'S', 'main', 200, FUTEX));
    parts.push(wake('main', 200, 1, t + 0.007, 'writer', 100));
    parts.push(sw('main', 200, 1, t + 0.008, 'S', 'writer', 100, FUTEX));
  }
  return parts.join('');
}

test('thread states: shares, a state’s stacks, a short link, its off-CPU flame graph as SVG', async ({ page, request, browser }) => {
  const incident = await createIncident(request, `e2e threads ${Date.now()}`);
  await uploadCapture(request, incident, Buffer.from(schedCapture(300)), { filename: 'sched.txt', host: 'db-7', offset: '+1767225600s' });

  await page.goto(`/threads?incident=${incident}`);
  await expect(page.getByTestId('threads-source')).toHaveText('From scheduler intervals (exact)');
  const writer = page.locator('[data-testid="thread-row"][data-tid="100"]');
  await expect(writer).toBeVisible();
  // writer: 4 ms of every 10 ms in D, 3 ms running; only the capture's edges are unknown.
  await expect(writer.locator('td').nth(6)).toHaveText(/^40(\.\d)?%$/);
  await expect(writer.locator('td').nth(3)).toHaveText(/^(29\.\d|30(\.\d)?)%$/);
  await expect.poll(() => measureCount(page, 'threads:render')).toBeGreaterThan(0);

  // Sort by D: writer first.
  await page.getByRole('button', { name: /^D/ }).click();
  await expect(page.getByTestId('thread-row').first()).toHaveAttribute('data-tid', '100');
  await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('uninterruptible');

  // Click the D part of writer's bar: the details show the fsync stack and a strip.
  await writer.locator('[data-state="uninterruptible"]').click();
  const detail = page.getByTestId('thread-detail');
  await expect(detail).toBeVisible();
  await expect(page.getByTestId('thread-state-detail')).toContainText('io_schedule');
  await expect(page.getByTestId('state-strip').locator('rect').first()).toBeAttached();
  await saveScreenshot(page, 'threads.png');

  // A short link to this view opens it in a fresh browser context.
  await page.getByTestId('share-button').click();
  await expect(page.getByTestId('share-url')).toHaveValue(/\/s\/[A-Za-z0-9_-]{8}$/);
  const shortLink = await page.getByTestId('share-url').inputValue();
  await page.getByTestId('share-url').press('Escape');
  await expect(page.getByTestId('share-url')).toHaveCount(0);
  await expect(page.getByTestId('thread-detail')).toBeVisible();
  const other = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const fresh = await other.newPage();
  await fresh.goto(shortLink);
  await expect(fresh).toHaveURL(/\/threads\?/);
  await expect(fresh.getByTestId('thread-state-detail')).toContainText('io_schedule');
  await other.close();

  // Its stacks as an off-CPU flame graph of that thread and state.
  await page.getByTestId('state-stacks-link').click();
  await page.waitForURL(/\/flame\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('source')).toBe('off-cpu');
  expect(url.searchParams.get('state')).toBe('D');
  expect(url.searchParams.get('tid')).toBe('100');
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="io_schedule"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="futex_wait"]')).toHaveCount(0);

  // The flame graph as a standalone SVG for the postmortem.
  await page.getByTestId('share-button').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  expect(download.suggestedFilename()).toMatch(/^flame-incident-\d+\.svg$/);
  const svg = fs.readFileSync(await download.path(), 'utf8');
  expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain('io_schedule');
  expect(svg).not.toContain('foreignObject');
});
