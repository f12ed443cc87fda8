/**
 * Pages that used to leave a newcomer stuck: a scheduler capture opened as a CPU flame graph (it holds
 * off-CPU time, not samples), the thread name filter (applied on Enter, a bad pattern explained in
 * words), and a short link that leads nowhere.
 */
import { expect, test } from '@playwright/test';
import { createIncident, saveScreenshot, uploadCapture } from './helpers';
import { OFFSET, schedSwitches } from './smallCaptures';

test('a scheduler capture in the CPU flame graph leads to its off-CPU flame graph', async ({ page, request }) => {
  const incident = await createIncident(request, `off-cpu way out ${Date.now()}`);
  const sched = await uploadCapture(request, incident, schedSwitches(), { filename: 'sched.txt', offset: OFFSET });

  // The capture by name, as the capture page's "Open flame graph" link would once have opened it.
  await page.goto(`/flame?incident=${incident}&captures=${sched.id}&pid=100`);
  const hint = page.getByTestId('offcpu-hint');
  await expect(hint).toContainText('time threads spent off the CPU');
  await saveScreenshot(page, 'dead-end-offcpu-hint.png');
  await page.getByTestId('offcpu-link').click();
  await expect(page).toHaveURL(/\/flame\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('source')).toBe('off-cpu');
  expect(url.searchParams.get('captures')).toBe(String(sched.id));
  expect(url.searchParams.get('pid')).toBe('100'); // the filters come along
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="io_schedule"]').first()).toBeVisible();
  await expect(page.getByTestId('offcpu-hint')).toHaveCount(0);

  // The whole incident, which has no CPU samples at all: the same way out.
  await page.goto(`/flame?incident=${incident}`);
  await page.getByTestId('offcpu-link').click();
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="futex_wait"]').first()).toBeVisible();
});

test('threads: the name filter says Enter applies it, and a bad pattern is told in words', async ({ page, request }) => {
  const incident = await createIncident(request, `thread filter ${Date.now()}`);
  await uploadCapture(request, incident, schedSwitches(), { filename: 'sched.txt', offset: OFFSET });
  await page.goto(`/threads?incident=${incident}`);
  await expect(page.getByTestId('thread-row')).toHaveCount(2);

  const filter = page.getByTestId('thread-filter');
  const hint = page.getByTestId('thread-filter-hint');
  await expect(hint).toHaveText('Enter to apply');
  await filter.fill('^wri');
  await expect(hint).toHaveText('Press Enter to apply');
  await expect(page.getByTestId('thread-row')).toHaveCount(2); // not sent yet
  await filter.press('Enter');
  await expect(page).toHaveURL(/[?&]match=%5Ewri/);
  await expect(page.getByTestId('thread-row')).toHaveCount(1);
  await expect(page.getByTestId('thread-row')).toHaveAttribute('data-tid', '100');
  await expect(hint).toHaveText('Enter to apply');

  await filter.fill('^wri(');
  await filter.press('Enter');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('the thread name filter is not a valid regular expression: missing ), unterminated subpattern');
  await expect(alert).not.toContainText('comm_regex');
  await saveScreenshot(page, 'dead-end-thread-filter.png');
});

test('a short link that leads nowhere shows the not-found page with a way back', async ({ page }) => {
  await page.goto('/s/nosuchln');
  const missing = page.getByTestId('not-found');
  await expect(missing).toContainText('This short link does not lead anywhere');
  await expect(missing).toContainText('/s/nosuchln');
  await saveScreenshot(page, 'dead-end-short-link.png');
  await missing.getByRole('link', { name: 'Back to incidents' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Incidents' })).toBeVisible();
});
