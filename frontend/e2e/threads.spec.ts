/**
 * The thread-state view in a browser: a scheduler capture with a known rhythm in which half the
 * waits have no closing event, the per-thread shares (pids known, nothing left unknown that the
 * thread's next sighting bounds), a click on a state, its heaviest blocking stacks, the strip with
 * its inferred stretches, futex waits by address, and the state's stacks as an off-CPU flame graph.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createIncident, measureCount, saveScreenshot, uploadCapture } from './helpers';

const IO_WAIT = ['__schedule', 'schedule', 'io_schedule', 'folio_wait_bit_common', 'filemap_fdatawait_range', 'file_write_and_wait_range', 'ext4_sync_file', 'do_fsync', '__x64_sys_fsync'];
const FUTEX = ['__schedule', 'schedule', 'futex_wait_queue', 'futex_wait', 'do_futex', '__x64_sys_futex'];
const PREEMPT = ['__schedule', 'preempt_schedule_irq', 'asm_sysvec_apic_timer_interrupt'];
const LOCK = '0x55d0c0ffee00';
const PID = 90;

/** A sample as `perf script -F +pid` prints it: `comm pid/tid [cpu] time: event: args`, then its stack. */
function sample(comm: string, tid: number, cpu: number, t: number, event: string, args: string, frames: string[]): string {
  const pid = tid === 0 ? 0 : PID;
  const head = `${comm} ${pid}/${tid} [${String(cpu).padStart(3, '0')}] ${t.toFixed(6)}: ${event}: ${args}`;
  return [head, ...frames.map((f, i) => `\tffffffff81${i.toString(16).padStart(6, '0')} ${f}+0x1 ([kernel.kallsyms])`)].join('\n') + '\n\n';
}

const sw = (comm: string, tid: number, cpu: number, t: number, state: string, next: string, nextTid: number, frames: string[]) =>
  sample(comm, tid, cpu, t, 'sched:sched_switch', `prev_comm=${comm} prev_pid=${tid} prev_prio=120 prev_state=${state} ==> next_comm=${next} next_pid=${nextTid} next_prio=120`, frames);

const wake = (waker: string, wakerTid: number, cpu: number, t: number, comm: string, tid: number) =>
  sample(waker, wakerTid, cpu, t, 'sched:sched_waking', `comm=${comm} pid=${tid} prio=120 target_cpu=${String(cpu).padStart(3, '0')}`, ['try_to_wake_up']);

/** A futex wait's entry (`-e syscalls:sys_enter_futex`): FUTEX_WAIT|FUTEX_PRIVATE_FLAG on LOCK. */
const futexWait = (comm: string, tid: number, cpu: number, t: number) =>
  sample(comm, tid, cpu, t, 'syscalls:sys_enter_futex', `uaddr: ${LOCK}, op: 0x00000080, val: 0x00000002, utime: 0x00000000, uaddr2: 0x00000000, val3: 0x00000000`, ['__GI___lll_lock_wait']);

/**
 * Every 10 ms on one CPU: writer waits 4 ms in D (fsync), is runnable 1 ms behind main, runs 1 ms,
 * sleeps on the futex 1 ms, is runnable 1 ms, runs 2 ms. Every other period perf recorded neither
 * the D wait's wakeup nor its switch-in (a thread resumed on an idle CPU): writer is next seen at
 * its futex call 5.5 ms in, which closes that wait (inferred). So writer spends (4 + 5.5) / 20 =
 * 47.5% in D, (3 + 2.5) / 20 = 27.5% running, 15% runnable, 10% sleeping, and nothing is unknown
 * but the capture's edge. main takes the same futex before it sleeps.
 */
function schedCapture(iterations: number): string {
  const parts: string[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const t = 1 + i * 0.01;
    const traced = i % 2 === 0;
    parts.push(sw('writer', 100, 1, t, 'D', 'swapper/1', 0, IO_WAIT));
    parts.push(sw('swapper/1', 0, 1, t + 0.001, 'R', 'main', 200, []));
    if (traced) {
      parts.push(wake('swapper/0', 0, 0, t + 0.004, 'writer', 100));
      parts.push(sw('main', 200, 1, t + 0.005, 'R+', 'writer', 100, PREEMPT));
    }
    parts.push(futexWait('writer', 100, 1, t + 0.0055));
    parts.push(sw('writer', 100, 1, t + 0.006, 'S', 'main', 200, FUTEX));
    parts.push(wake('main', 200, 1, t + 0.007, 'writer', 100));
    parts.push(futexWait('main', 200, 1, t + 0.0075));
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
  // Its pid is known; the waits no event closed count as D up to its next sighting, not unknown.
  await expect(writer.locator('td').first()).toContainText(`${PID}/100`);
  await expect(writer.locator('td').nth(6)).toHaveText(/^47\.\d%$/);
  await expect(writer.locator('td').nth(3)).toHaveText(/^27\.\d%$/);
  await expect(writer.locator('td').nth(8)).toHaveText('');
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
  await expect(page.getByTestId('thread-ids')).toContainText(`pid ${PID}`);
  const top = page.getByTestId('top-stack').first();
  await expect(top).toContainText('300 waits');
  await expect(top).toContainText('(100% of this state)');
  // Half the D time ends where writer was next seen running: hatched in the bar and the strip.
  await expect(page.getByTestId('thread-state-detail')).toContainText(/of it inferred/);
  await expect(page.getByTestId('inferred-note')).toContainText('300 intervals');
  await expect(detail.locator('[data-state="uninterruptible"] [data-testid="inferred-part"]')).toBeAttached();
  await expect(page.getByTestId('state-strip').locator('g[data-inferred="true"]').first()).toBeAttached();
  await expect(page.getByTestId('state-strip').locator('g[data-state="unknown"]')).toHaveCount(0);
  // The futex both threads take, by address, with each one's waits; writer's own part in its details.
  const lock = page.locator(`[data-testid="lock-row"][data-address="${LOCK}"]`);
  await expect(lock).toContainText(`futex ${LOCK} in pid ${PID}`);
  await expect(lock).toContainText('writer 100');
  await expect(lock).toContainText('main 200');
  await expect(page.getByTestId('thread-locks')).toContainText(`futex ${LOCK} in pid ${PID}: ×300`);
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
