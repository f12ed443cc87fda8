/**
 * Snapshots and the config diff in a browser: the text snapshots recorded for the back-end tests
 * uploaded (a healthy and an impacted host, and a file with a start and an end take), the capture
 * page linking to the snapshot, its link to start-against-end, and the diff view listing changed
 * settings first, then added and removed, with the unchanged ones collapsed.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createIncident, recordCspViolations, repo, saveScreenshot, uploadCapture } from './helpers';

const data = path.join(repo, 'backend', 'tests', 'ingest', 'data', 'snapshot_text');

test('config diff: two hosts, changed settings first; one snapshot start against end', async ({ page, request }) => {
  const violations = await recordCspViolations(page);
  const incident = await createIncident(request, `e2e config diff ${Date.now()}`);
  const healthy = await uploadCapture(request, incident, path.join(data, 'pair', 'healthy.txt'), { host: 'web-1' });
  const impacted = await uploadCapture(request, incident, path.join(data, 'pair', 'impacted.txt'), { host: 'web-2' });
  const startEnd = await uploadCapture(request, incident, path.join(data, 'start_end.txt'), { host: 'web-3' });

  // The incident page names a text snapshot as one, and opens it.
  await page.goto(`/incidents/${incident}`);
  const row = page.getByTestId('capture-row').filter({ hasText: 'start_end.txt' });
  await row.getByRole('link', { name: 'Open snapshot' }).click();
  await page.waitForURL(new RegExp(`/captures/${startEnd.id}/snapshot$`));
  await expect(page.getByText('take 2 (end)')).toBeVisible();
  await expect(page.getByTestId('snapshot-section').filter({ hasText: 'transparent_hugepage' }).first()).toBeVisible();

  // Start against end: nothing changed, a BPF program and trace events appeared.
  await page.getByTestId('compare-config').click();
  await page.waitForURL(new RegExp(`/incidents/${incident}/config-diff\\?a=${startEnd.id}:0&b=${startEnd.id}:1$`));
  await expect(page.getByTestId('config-diff-summary')).toContainText('3 settings differ · 0 changed · 3 added · 0 removed');
  await expect(page.getByTestId('config-diff-changed')).toHaveCount(0);
  await expect(page.getByTestId('config-diff-added')).toContainText('program · tracepoint fsync_lat');
  await expect(page.getByTestId('config-diff-added')).toContainText('sched:sched_switch');

  // Two hosts: changed settings first, then added, then removed; unchanged collapsed.
  await page.getByRole('combobox', { name: 'A (baseline)' }).selectOption(`${healthy.id}:0`);
  await page.getByRole('combobox', { name: 'B (compared)' }).selectOption(`${impacted.id}:0`);
  await expect(page).toHaveURL(new RegExp(`a=${healthy.id}%3A0&b=${impacted.id}%3A0|a=${healthy.id}:0&b=${impacted.id}:0`));
  const summary = page.getByTestId('config-diff-summary');
  await expect(summary).toContainText('10 settings differ · 4 changed · 5 added · 1 removed');
  const changed = page.getByTestId('config-diff-changed');
  const changedRows = changed.locator('tbody tr');
  await expect(changedRows).toHaveCount(4);
  await expect(changedRows.nth(0)).toContainText('defrag');
  await expect(changedRows.nth(0).locator('.config-diff-a')).toHaveText('madvise');
  await expect(changedRows.nth(0).locator('.config-diff-b')).toHaveText('always');
  await expect(changedRows.nth(0)).toContainText('compaction stalls');
  await expect(changedRows.nth(1)).toContainText('governors');
  await expect(changedRows.nth(1).locator('.config-diff-b')).toHaveText('powersave');
  await expect(changed).toContainText('dirty_ratio');
  await expect(page.getByTestId('config-diff-removed')).toContainText('LD_BIND_NOW');
  await expect(page.getByTestId('config-diff-added')).toContainText('kprobe_events · p:kprobes/fsync_entry');

  // The sections come in that order on the page, and unchanged settings stay folded until asked for.
  const order = await page.locator('[data-testid^="config-diff-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  expect(order.filter((t) => t !== 'config-diff-summary')).toEqual(['config-diff-changed', 'config-diff-added', 'config-diff-removed', 'config-diff-unchanged']);
  const unchanged = page.getByTestId('config-diff-unchanged');
  await expect(unchanged.locator('tbody tr').first()).toBeHidden();
  await saveScreenshot(page, 'config-diff.png');

  await unchanged.locator('summary').click();
  await expect(unchanged.locator('tbody tr')).toHaveCount(45);
  await unchanged.locator('summary').click();
  await expect(unchanged.locator('tbody tr')).toHaveCount(0);

  await page.getByRole('searchbox', { name: 'Filter settings' }).fill('swappiness');
  await expect(changedRows).toHaveCount(0);
  await expect(unchanged.locator('tbody tr')).toHaveCount(1);
  await expect(unchanged.locator('tbody tr').first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
