/**
 * An incident's lifecycle in the console: status steps with their stamps, the edit form's root cause
 * kept across a reload, a capture to the trash and back, the incident to the trash and purged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { corpus, createIncident, saveScreenshot, uploadCapture } from './helpers';

const small = path.join(corpus, 'perf-script', 'flamegraph', 'perf-js-stacks-01.txt');

/** Accept the next confirmation, checking it says what is at stake. */
function acceptNextConfirm(page: Page, says: RegExp): void {
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toMatch(says);
    void dialog.accept();
  });
}

test('status, edit, capture to the trash and back, incident to the trash and purged', async ({ page, request }) => {
  test.skip(!fs.existsSync(small), `not in the test corpus: ${small} (set STALLSCOPE_CORPUS)`);
  const title = `e2e lifecycle ${Date.now()}`;
  const incident = await createIncident(request, title);
  const capture = await uploadCapture(request, incident, small);

  await page.goto(`/incidents/${incident}`);
  const lifecycle = page.getByTestId('incident-lifecycle');
  // A retry uploads the same file again, so its blob may be shared with the first try's incident.
  await expect(lifecycle.getByTestId('incident-storage')).toContainText(/^Stores .+ of uploads( \(.+\))?, .+ rows?$/);

  // Status: identified, then resolved (mitigated skipped); both stamps shown.
  await expect(page.getByTestId('status-identified-at')).toHaveText('not yet');
  await lifecycle.getByRole('button', { name: 'Identified' }).click();
  await expect(lifecycle.getByRole('button', { name: 'Identified' })).toHaveAttribute('aria-pressed', 'true');
  await lifecycle.getByRole('button', { name: 'Resolved' }).click();
  await expect(lifecycle.getByRole('button', { name: 'Resolved' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('status-identified-at').locator('time')).toBeVisible();
  await expect(page.getByTestId('status-resolved-at').locator('time')).toBeVisible();
  await expect(page.getByTestId('status-mitigated-at')).toHaveText('not yet');

  // Edit: the root cause is kept (shown read-only after a reload); Esc cancels a second edit.
  await lifecycle.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit incident' });
  await form.getByLabel('Root cause').fill('fsync on the NFS-mounted log volume');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('root-cause')).toHaveText('fsync on the NFS-mounted log volume');
  await expect(page.getByTestId('status-resolved')).toHaveClass(/status-step--current/);
  await saveScreenshot(page, 'lifecycle-incident.png');
  await lifecycle.getByRole('button', { name: 'Edit' }).click();
  await form.getByLabel('Root cause').fill('not saved');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(page.getByTestId('root-cause')).toHaveText('fsync on the NFS-mounted log volume');

  // The capture to the trash: gone from the page, listed in the trash, restored.
  const row = page.locator(`[data-testid="capture-row"][data-capture-id="${capture.id}"]`);
  acceptNextConfirm(page, /to the trash\? An admin can restore it for 7 days/);
  await row.getByRole('button', { name: 'Delete…' }).click();
  await expect(row).toBeHidden();
  await page.goto('/admin/trash');
  const trashed = page.locator(`[data-testid="trash-capture"][data-capture-id="${capture.id}"]`);
  await expect(trashed).toContainText(title);
  await trashed.getByRole('button', { name: 'Restore' }).click();
  await expect(trashed).toBeHidden();
  await page.goto(`/incidents/${incident}`);
  await expect(row).toBeVisible();

  // The incident to the trash: back to the list, then purged for good from the trash.
  acceptNextConfirm(page, /and its captures to the trash\? An admin can restore it for 7 days/);
  await lifecycle.getByRole('button', { name: 'Delete…' }).click();
  // The address changes before the list renders (the router commits in a transition): wait for the list.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Incidents', exact: true })).toBeVisible();
  await expect(page.getByText(title)).toHaveCount(0);
  await page.getByTestId('user-menu').locator('summary').click();
  await page.getByRole('menuitem', { name: 'Trash' }).click();
  const gone = page.locator(`[data-testid="trash-incident"][data-incident-id="${incident}"]`);
  await expect(gone).toContainText(title);
  await saveScreenshot(page, 'lifecycle-trash.png');
  acceptNextConfirm(page, /cannot be undone/);
  await gone.getByRole('button', { name: 'Purge now…' }).click();
  await expect(gone).toBeHidden();
  expect((await request.get(`/api/incidents/${incident}`)).status()).toBe(404);
  await page.reload();
  await expect(page.getByText(title)).toHaveCount(0);
});
