/**
 * The escalation bundle from the incident page and back: a lab capture pair (CPU samples and the
 * host's snapshot) uploaded under a secret-looking host name; the export dialog's redaction preview
 * shows that name replaced by its pseudonym; the host rule unticked and a rule added (a bad pattern
 * first, refused by the server with its message); the preview made again shows the host rule off;
 * Export downloads a zip; from the incident list, a file that is not a bundle is refused and the zip
 * becomes a new incident.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createIncident, recordCspViolations, repo, saveScreenshot, uploadCapture } from './helpers';

const folder = path.join(repo, 'lab', 'global-spin-lock', 'captures', 'bad');
const HOST = 'db-secret-7';

test('bundle export: preview and edit the redaction, download the zip, import it as a new incident', async ({ page, request }) => {
  test.setTimeout(180_000);
  if (!fs.existsSync(folder)) {
    const reason = `the lab captures are not in ${folder}`;
    console.log(`skipped: ${reason}`);
    test.skip(true, reason);
  }
  const violations = await recordCspViolations(page);
  const title = `e2e bundle ${Date.now()}`;
  const incident = await createIncident(request, title);
  for (const name of ['cpu.perf.txt.gz', 'snapshot.json']) await uploadCapture(request, incident, path.join(folder, name), { host: HOST });

  await page.goto(`/incidents/${incident}`);
  await page.getByTestId('export-bundle').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('export-capture')).toHaveCount(2);

  // The host-names rule replaces the capture's host, shown in context with its pseudonym.
  await dialog.getByTestId('preview-redaction').click();
  const hostRule = dialog.locator('[data-testid="redaction-rule"][data-rule-id="hostnames"]');
  await expect(hostRule).toHaveAttribute('data-enabled', 'true');
  const example = hostRule.getByTestId('rule-example').filter({ has: page.locator('mark', { hasText: HOST }) }).first();
  await expect(example.getByTestId('rule-replacement')).toHaveText('host-1');
  await expect(hostRule.getByTestId('rule-matches')).toHaveText(/^\d[\d,]* match(es)?$/);

  // Untick it: the preview is stale. A pattern Python cannot compile is refused with the server's words.
  await hostRule.getByTestId('rule-toggle').uncheck();
  await expect(dialog.getByTestId('preview-stale')).toBeVisible();
  const add = dialog.getByTestId('add-rule');
  await add.getByTestId('add-rule-name').fill('workload');
  await add.getByTestId('add-rule-pattern').fill('flock_(');
  await add.getByTestId('add-rule-submit').click();
  await expect(add.getByTestId('add-rule-problem')).toContainText('invalid regular expression');
  await expect(dialog.locator('[data-rule-id="custom:workload"]')).toHaveCount(0);

  await add.getByTestId('add-rule-pattern').fill(String.raw`flock_\w+`);
  await add.getByTestId('add-rule-submit').click();
  const custom = dialog.locator('[data-testid="redaction-rule"][data-rule-id="custom:workload"]');
  await expect(custom).toHaveAttribute('data-enabled', 'true');

  // Preview again: the host rule is off and replaces nothing, the new rule replaces the workload's name.
  await dialog.getByTestId('preview-redaction').click();
  await expect(dialog.getByTestId('preview-stale')).toHaveCount(0);
  await expect(hostRule).toHaveAttribute('data-enabled', 'false');
  await expect(hostRule.getByTestId('rule-matches')).toHaveText('off');
  await expect(hostRule.getByTestId('rule-toggle')).not.toBeChecked();
  await expect(custom.getByTestId('rule-replacement').first()).toHaveText('workload-1');
  await saveScreenshot(page, 'bundle-export-dialog.png');

  // Export: a zip arrives under the incident's bundle name.
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    dialog.getByTestId('export-start-button').click(),
  ]);
  expect(download.suggestedFilename()).toBe(`stallscope-incident-${incident}.zip`);
  const zip = fs.readFileSync(await download.path());
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  await expect(dialog.getByTestId('export-done')).toBeVisible();

  // Escape closes the dialog, focus goes back to its button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('export-bundle')).toBeFocused();

  // Import from the incident list: a file that is not a bundle is refused with the server's reason;
  // the bundle becomes a new incident, and the page moves to it.
  await page.goto('/');
  await page.getByTestId('import-bundle-input').setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(page.getByTestId('import-error')).toContainText('notes.zip: not a zip file');
  await page.getByTestId('import-bundle-input').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/zip', buffer: zip });
  await page.waitForURL((url) => /^\/incidents\/\d+$/.test(url.pathname) && url.pathname !== `/incidents/${incident}`, { timeout: 60_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/\(imported\)$/);
  expect(await violations()).toEqual([]);
});
