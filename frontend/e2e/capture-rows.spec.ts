/**
 * What a capture row says about files that are not quite captures: an empty upload is a grey
 * `empty` row with a sentence, not a red failure; a trace whose tracer lost events says how many,
 * per CPU, in the row's details; a warning about a whole file names no line.
 */
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { createIncident, repo, saveScreenshot, uploadCapture } from './helpers';

const lostEvents = path.join(repo, 'backend', 'tests', 'ingest', 'data', 'ftrace', 'events_lost.txt');

/**
 * Until a row has its final height: a responder's controls ("Shift…") arrive with the permissions,
 * after the rows are drawn, and push the row's toggle down; a click in that moment can miss it.
 */
async function settled(row: Locator): Promise<void> {
  await expect(row.getByRole('button', { name: 'Shift…' })).toBeVisible();
}

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
  await settled(traced);
  await traced.getByRole('button', { name: /warn/ }).click();
  await expect(page.locator('.warnings')).toContainText('lost 1,836 events (CPU 0: 1,067, CPU 1: 769)');
  await saveScreenshot(page, 'capture-rows-empty-and-lost.png');
});

test('a warning about the whole file names no line; one about a line names it', async ({ page, request }) => {
  const incident = await createIncident(request, `e2e warning lines ${Date.now()}`);
  // Epoch-second timestamps are read as such and said once, for the file (no line of its own).
  await uploadCapture(request, incident, Buffer.from('ts,latency_ms\n1764000000,1.5\n1764000001,2.5\n'), { filename: 'latency.csv' });
  await uploadCapture(request, incident, lostEvents, { host: 'db-7' });

  await page.goto(`/incidents/${incident}`);
  const metrics = page.getByTestId('capture-row').filter({ hasText: 'latency.csv' });
  await settled(metrics);
  await metrics.getByRole('button', { name: /warn/ }).click();
  // The details are the next table row: the only warnings open so far are this file's.
  const fileWarnings = page.locator('.warnings');
  await expect(fileWarnings).toHaveCount(1);
  await expect(fileWarnings).toContainText('timestamps: epoch seconds');
  await expect(fileWarnings).not.toContainText(/line \d/);

  const traced = page.getByTestId('capture-row').filter({ hasText: 'events_lost.txt' });
  await traced.getByRole('button', { name: /warn/ }).click();
  await expect(page.locator('.warnings').filter({ hasText: 'lost' })).toContainText(/line \d/);
  await saveScreenshot(page, 'capture-rows-warning-lines.png');
});
