/**
 * Findings on a real bad/fixed pair: the mmap_lock lab's captures of a process that maps memory in a
 * loop (host `bad`) and of the same process reusing its mapping (host `fixed`), uploaded to one
 * incident. With `fixed` as the baseline, mmap_lock contention leads the list; the flame graph its
 * evidence opens shows the share the evidence quotes; a verdict given survives a reload; the
 * captures it rests on carry a badge, and the threads view of host `bad` names it. On the timeline,
 * the bad host's time as a window names it too, against the time after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { findings, firstPercent, uploadFolder } from './findingsHelpers';
import { createIncident, repo, saveScreenshot } from './helpers';
import { checkWindowFindings } from './windowFindings';

const lab = path.join(repo, 'lab', 'mmap-lock-contention', 'captures');
const FINDING = 'mmap-lock-contention';

test('findings: mmap_lock contention against a fixed baseline, its evidence view, a verdict kept', async ({ page, request }) => {
  test.setTimeout(300_000);
  for (const side of ['bad', 'fixed']) {
    const folder = path.join(lab, side);
    if (!fs.existsSync(folder)) {
      const reason = `the lab's ${side} captures are not in ${lab}`;
      console.log(`skipped: ${reason}`);
      test.skip(true, reason);
    }
  }
  const incident = await createIncident(request, `e2e findings ${Date.now()}`);
  const bad = await uploadFolder(request, incident, path.join(lab, 'bad'), 'bad');
  await uploadFolder(request, incident, path.join(lab, 'fixed'), 'fixed');

  // Every capture parsed (or refused), and nothing being computed.
  await expect
    .poll(
      async () => {
        const f = await findings(request, incident);
        return f.state !== 'computing' && f.captures_pending === 0;
      },
      { timeout: 180_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);

  await page.goto(`/incidents/${incident}`);
  const panel = page.getByTestId('findings-panel');
  await expect(panel.getByRole('heading', { name: 'Findings' })).toBeVisible();

  // Compare with the fixed host.
  const picker = panel.getByTestId('findings-baseline');
  await picker.selectOption('fixed');
  await expect
    .poll(
      async () => {
        const f = await findings(request, incident);
        return f.state === 'ready' && f.baseline_hosts.join(',') === 'fixed';
      },
      { timeout: 120_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(picker).toHaveValue('fixed');

  // First among the criticals and warnings, found on the bad host.
  const serious = panel.locator('[data-testid="finding"][data-severity="critical"], [data-testid="finding"][data-severity="warning"]');
  await expect(serious.first()).toHaveAttribute('data-finding-id', FINDING);
  const item = panel.locator(`[data-testid="finding"][data-finding-id="${FINDING}"]`);
  await expect(item.locator('.finding__meta')).toContainText('bad');

  // The capture rows it rests on carry a badge.
  const badgeRows = page.locator('[data-testid="capture-row"]').filter({ has: page.getByTestId('capture-findings') });
  await expect(badgeRows.first()).toBeVisible();
  const badged = await badgeRows.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-capture-id'))));
  expect(badged.some((id) => bad.includes(id)), `badged captures ${badged.join(',')}: one is on host bad`).toBe(true);

  // Keyboard: arrows move between the headers, Enter opens one.
  const head = item.locator('button[data-finding-head]');
  await head.focus();
  await page.keyboard.press('ArrowDown');
  await expect(panel.locator('button[data-finding-head]').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(head).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  const evidence = item.getByTestId('finding-evidence').filter({ hasText: /^Stacks with/ });
  await expect(evidence).toHaveCount(1);
  const quoted = firstPercent(await evidence.getByTestId('finding-evidence-text').innerText());
  await saveScreenshot(page, 'findings-panel.png');

  // The flame graph the evidence opens shows the share it quotes (the view rounds to 1 or 2 decimals).
  await evidence.getByTestId('finding-evidence-open').click();
  await expect(page).toHaveURL(/\/flame\?/);
  const matched = page.getByTestId('flame-matched');
  await expect(matched).toContainText(/matched [\d.]+% of total/, { timeout: 60_000 });
  const shown = firstPercent(await matched.innerText());
  expect(Math.abs(shown - quoted), `flame graph ${shown}% against the evidence's ${quoted}%`).toBeLessThanOrEqual(0.06);

  // The threads view of host bad names the finding.
  await page.goto(`/threads?incident=${incident}&hosts=bad`);
  const strip = page.getByTestId('relevant-findings');
  await expect(strip).toContainText(/concerns? this host: bad/, { timeout: 60_000 });
  await expect(strip).toContainText('mmap_lock contention');
  await strip.getByRole('button').click();
  await expect(strip.getByRole('link', { name: 'mmap_lock contention' })).toBeVisible();
  await saveScreenshot(page, 'findings-threads.png');

  // Confirm, with a note; the verdict is there after a reload.
  await page.goto(`/incidents/${incident}`);
  await item.locator('button[data-finding-head]').click();
  await item.getByRole('textbox', { name: /^Note on/ }).fill('mmap churn in the worker loop');
  await item.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(item.getByTestId('finding-verdict-given')).toContainText('Confirmed');
  await page.reload();
  await expect(item.locator('.finding__meta')).toContainText('confirmed');
  await item.locator('button[data-finding-head]').click();
  await expect(item.getByTestId('finding-verdict-given')).toContainText('Confirmed — mmap churn in the worker loop');

  // The same captures on the timeline: the bad host's time as a window, against the time after it.
  await checkWindowFindings(page, request, incident);
});

test('findings: a thread-level evidence opens the threads view showing the share it quotes', async ({ page, request }) => {
  test.setTimeout(240_000);
  const folder = path.join(repo, 'lab', 'runqueue-starvation', 'captures', 'bad');
  if (!fs.existsSync(folder)) {
    const reason = `the lab's run-queue captures are not in ${folder}`;
    console.log(`skipped: ${reason}`);
    test.skip(true, reason);
  }
  const incident = await createIncident(request, `e2e findings threads ${Date.now()}`);
  await uploadFolder(request, incident, folder, 'starved');
  await expect
    .poll(
      async () => {
        const f = await findings(request, incident);
        return f.state === 'ready' && f.captures_pending === 0 && f.findings.some((x) => x.id === 'runqueue-starvation');
      },
      { timeout: 180_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);

  await page.goto(`/incidents/${incident}`);
  const item = page.locator('[data-testid="finding"][data-finding-id="runqueue-starvation"]');
  await item.locator('button[data-finding-head]').click();
  const evidence = item.getByTestId('finding-evidence').filter({ hasText: /^Runnable, waiting for a CPU/ });
  const text = await evidence.getByTestId('finding-evidence-text').innerText();
  const quoted = firstPercent(text);
  const tid = /\((\d+)\)/.exec(text)?.[1];
  expect(tid, `a thread id in “${text}”`).toBeTruthy();

  await evidence.getByTestId('finding-evidence-open').click();
  await expect(page).toHaveURL(new RegExp(`/threads\\?.*tid=${tid}`));
  // Columns: thread, wall, bar, running, runnable, …: the runnable share is the fifth cell.
  const row = page.locator(`[data-testid="thread-row"][data-tid="${tid}"]`);
  const runnable = row.locator('td').nth(4);
  await expect(runnable).toContainText('%', { timeout: 60_000 });
  const shown = firstPercent(await runnable.innerText());
  expect(Math.abs(shown - quoted), `threads view ${shown}% against the evidence's ${quoted}%`).toBeLessThanOrEqual(0.1);
});
