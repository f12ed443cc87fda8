/**
 * What a capture row says about files that are not quite captures: an empty upload is a grey
 * `empty` row with a sentence, not a red failure; a trace whose tracer lost events says how many,
 * per CPU, in the row's details.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createIncident, repo, saveScreenshot, uploadCapture } from './helpers';

const lostEvents = path.join(repo, 'backend', 'tests', 'ingest', 'data', 'ftrace', 'events_lost.txt');

test('an empty upload is an empty row; lost events are counted per CPU in the details', async ({ page, request }) => {
  const incident = await createIncident(request, `e2e capture rows ${Date.now()}`);
  const empty = await uploadCapture(request, incident, Buffer.from('\n\n  \n'), { filename: 'blank.txt' });
  expect(empty.status).toBe('empty');
  await uploadCapture(request, incident, lostEvents, { host: 'db-7' });

  await page.goto(`/incidents/${incident}`);
  const blank = page.getByTestId('capture-row').filter({ hasText: 'blank.txt' });
  await expect(blank.getByTestId('capture-status')).toHaveText('empty');
  await expect(blank.getByTestId('capture-status')).toHaveClass(/status--empty/);
  await expect(blank.getByTestId('capture-empty')).toContainText('The file is empty');

  const traced = page.getByTestId('capture-row').filter({ hasText: 'events_lost.txt' });
  await traced.getByRole('button', { name: /warn/ }).click();
  await expect(page.locator('.warnings')).toContainText('lost 1,836 events (CPU 0: 1,067, CPU 1: 769)');
  await saveScreenshot(page, 'capture-rows-empty-and-lost.png');
});
