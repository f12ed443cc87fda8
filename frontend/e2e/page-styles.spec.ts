/**
 * Each page brings its own stylesheet with its chunk, and a stylesheet stays once loaded: a rule of
 * one page must not restyle another's elements after both were opened in one visit (the metrics
 * legend's column layout once turned the flame graph's legend into a column).
 */
import { expect, test } from '@playwright/test';
import { createIncident, uploadCapture } from './helpers';
import { cpuSamples, OFFSET } from './smallCaptures';

test("a page opened earlier does not restyle the next page's elements", async ({ page, request }) => {
  const incident = await createIncident(request, `page styles ${Date.now()}`);
  const cpu = await uploadCapture(request, incident, cpuSamples(), { filename: 'cpu.txt', offset: OFFSET });
  const flame = `/flame?incident=${incident}&captures=${cpu.id}`;
  const legendDirection = () =>
    page.getByRole('list', { name: 'Frame colours' }).evaluate((el) => getComputedStyle(el).flexDirection);

  await page.goto(flame);
  await expect(page.locator('[data-testid="flame-chart"] g.frame').first()).toBeVisible();
  const alone = await legendDirection();

  // The metrics page, then back to the flame graph inside the same page load (the router's own
  // navigation, as a click would do): the metrics stylesheet is now in the document.
  await page.goto(`/metrics?incident=${incident}`);
  await expect(page.getByRole('complementary', { name: 'Series' })).toBeVisible();
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, flame);
  await expect(page.locator('[data-testid="flame-chart"] g.frame').first()).toBeVisible();
  expect(await page.evaluate(() => [...document.styleSheets].length)).toBeGreaterThan(1);
  expect(await legendDirection()).toBe(alone);
});
