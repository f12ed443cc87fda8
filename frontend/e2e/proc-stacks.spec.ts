/**
 * /proc stack dumps in a browser: the recorded dumps of the back-end tests uploaded, the capture page
 * naming them, its link opening the flame graph of the D-state stacks, the state select, and the
 * timeline showing the D track by default.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createIncident, repo, saveScreenshot, uploadCapture } from './helpers';

const dumps = path.join(repo, 'backend', 'tests', 'ingest', 'data', 'proc_stacks', 'pid_state.txt');

test('/proc stack dumps: named on the capture page, a D-state flame graph, a timeline track', async ({ page, request }) => {
  const incident = await createIncident(request, `e2e proc stacks ${Date.now()}`);
  await uploadCapture(request, incident, dumps, { host: 'db-7' });

  await page.goto(`/incidents/${incident}`);
  const row = page.getByTestId('capture-row').first();
  await expect(row.getByTestId('capture-records')).toHaveText('120 kernel stack samples (13 in state D)');
  await expect(row).toContainText('proc-stacks');
  await row.getByRole('link', { name: 'Open kernel-stack flame graph' }).click();
  await page.waitForURL(/\/flame\?.*source=proc-stack.*state=D/);

  await expect(page.locator('.crumbs')).toContainText('kernel-stack flame graph');
  await expect(page.getByTestId('flame-summary')).toHaveText(/kernel stacks in state D · 13 stack\s+dumps/);
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="fsync"]')).toBeVisible();
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="do_fsync"]').first()).toBeAttached();
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="lock"]')).toHaveCount(0);
  await saveScreenshot(page, 'proc-stacks-flame.png');

  // Every state: the futex waits of the lock threads join.
  await page.getByRole('combobox', { name: 'State' }).selectOption('');
  await expect(page.getByTestId('flame-summary')).toHaveText(/kernel stacks · 120 stack\s+dumps/);
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="lock"]')).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('state')).toBeNull();

  await page.goto(`/timeline?incident=${incident}`);
  await expect(page.getByTestId('timeline-label').filter({ hasText: '/proc stack samples · state D' })).toBeVisible();
  await saveScreenshot(page, 'proc-stacks-timeline.png');
});
