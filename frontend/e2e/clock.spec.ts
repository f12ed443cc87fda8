/**
 * A capture nothing aligns, in a browser: never shown as a 1970 date (timeline axis, capture row,
 * range chips and links on its own clock), placed on the wall clock by the start a person gives
 * afterwards on the capture row, or at upload with the "Started at" field.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createIncident, repo, saveScreenshot, uploadCapture, waitParsed } from './helpers';

const unaligned = path.join(repo, 'backend', 'tests', 'ingest', 'data', 'clock', 'cpu.perf.txt.gz');

test('an unaligned capture: on its own clock, never 1970; a start given afterwards or at upload places it', async ({ page, request }) => {
  const incident = await createIncident(request, `e2e clock ${Date.now()}`);
  const capture = await uploadCapture(request, incident, unaligned, { host: 'db-7' });

  await page.goto(`/timeline?incident=${incident}`);
  await expect(page.getByTestId('timeline-host').filter({ hasText: 'unaligned' })).toBeVisible();
  await expect(page.locator('.tl-axis--utc .tick text').first()).toHaveText(/^\d+(\.\d+)? s$/);
  await expect(page.locator('body')).not.toContainText('1970');
  await saveScreenshot(page, 'clock-unaligned-timeline.png');

  // A range on the capture clock, from a link: read back as seconds, never as a date.
  await page.goto(`/flame?incident=${incident}&captures=${capture.id}&from=13061.9s&to=13062.2s`);
  await expect(page.locator('body')).toContainText('on the capture clock');
  await expect(page.locator('body')).not.toContainText('1970');

  await page.goto(`/incidents/${incident}`);
  const row = page.getByTestId('capture-row').first();
  await expect(row.getByTestId('clock-badge')).toHaveText('unaligned');
  await expect(row).not.toContainText('1970');
  await row.getByTestId('set-start').click();
  await row.getByTestId('start-input').fill('2026-11-25T14:02:10');
  await row.getByRole('button', { name: 'Place' }).click();
  await expect(row.getByTestId('clock-badge')).toHaveText('user-start', { timeout: 60_000 });
  const placed = await waitParsed(request, capture.id);
  const expected = new Date(2026, 10, 25, 14, 2, 10).toISOString().replace('.000Z', 'Z');
  expect(placed.time_start).toBe(expected);
  await expect(row).toContainText('2026-11-25');

  // At upload: the start field applies to what nothing else aligns.
  await page.getByTestId('upload-start').fill('2026-11-25T15:00:00');
  await page.getByTestId('capture-file-input').setInputFiles(unaligned);
  await expect(page.getByTestId('capture-row')).toHaveCount(2);
  await expect(page.getByTestId('clock-badge').filter({ hasText: 'user-start' })).toHaveCount(2, { timeout: 60_000 });
  await saveScreenshot(page, 'clock-start-given.png');
});
