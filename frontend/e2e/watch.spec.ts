/**
 * The watch page: a signature written through its form (a pattern the browser refuses, one only the
 * server refuses), listed and changed; a webhook (admins); the empty alerts and streams; then a
 * watch capture that matches: its stream, its alert with the evidence link and the delivery, an
 * incident opened from the alert; and both deleted after their confirmation.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { saveScreenshot, waitParsed } from './helpers';
import { cpuSamples, OFFSET } from './smallCaptures';

/** Accept the next confirmation, checking it says what is at stake. */
function acceptNextConfirm(page: Page, says: RegExp): void {
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toMatch(says);
    void dialog.accept();
  });
}

async function count(request: APIRequestContext, url: string): Promise<number> {
  const res = await request.get(url);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as unknown[]).length;
}

test('signatures, a webhook, a watch stream and its alert on the watch page', async ({ page, request }) => {
  const stamp = Date.now();
  const name = `e2e flush ${stamp}`;
  const hook = `e2e hook ${stamp}`;
  const host = `e2e-watch-${stamp}`;
  // The empty states show on a console nothing was sent to yet (not on a retry against the same one).
  const noAlerts = (await count(request, '/api/alerts')) === 0;
  const noStreams = (await count(request, '/api/watch/streams')) === 0;

  await page.goto('/');
  await page.getByRole('link', { name: 'Watch', exact: true }).click();
  await expect(page).toHaveURL(/\/watch$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Watch' })).toBeVisible();
  await expect(page).toHaveTitle('Watch · Stallscope');
  const alerts = page.getByTestId('watch-alerts');
  const streams = page.getByTestId('watch-streams');
  if (noAlerts) {
    await expect(alerts.getByText('No alerts')).toBeVisible();
    await expect(alerts).toContainText('when it matches an enabled signature');
    await expect(alerts.getByRole('link', { name: 'below' })).toHaveAttribute('href', '#signatures');
  }
  if (noStreams) {
    await expect(streams.getByText('No host is sending watch captures')).toBeVisible();
    await expect(streams).toContainText('sudo stallscope-collect watch --server http');
    await expect(streams).toContainText('stallscope-collect-watch.service');
  }

  // A new signature: the browser catches an unclosed group, the server a look-behind Python refuses.
  const signatures = page.getByTestId('watch-signatures');
  await signatures.getByRole('button', { name: 'New signature' }).click();
  const create = page.getByRole('form', { name: 'New signature' });
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('Pattern').fill('(flush');
  await create.getByLabel('Min share').fill('10');
  await create.getByLabel('Pattern').press('Enter');
  await expect(create.getByRole('alert')).toHaveText('Pattern: the pattern expression is not a regular expression: unterminated group');
  await expect(create.getByLabel('Pattern')).toBeFocused();
  await expect(create.getByLabel('Pattern')).toHaveAttribute('aria-invalid', 'true');

  // Off-CPU rules have a state and a time threshold; CPU rules do not.
  await expect(create.getByLabel('State')).toHaveCount(0);
  await create.getByLabel('Source').selectOption('off-cpu');
  await expect(create.getByLabel('State')).toBeVisible();
  await expect(create.getByLabel('Min time')).toBeVisible();
  await create.getByLabel('Source').selectOption('cpu');
  await expect(create.getByLabel('Min time')).toHaveCount(0);

  await create.getByLabel('Pattern').fill('(?<=a+)flush');
  await create.getByRole('button', { name: 'Create signature' }).click();
  await expect(create.getByRole('alert')).toContainText('look-behind requires fixed-width pattern');
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky top bar at the top of the picture
  await saveScreenshot(page, 'watch-signature-refused.png');

  await create.getByLabel('Pattern').fill('^flush$');
  await create.getByLabel('Pattern').press('Enter');
  await expect(create).toBeHidden();
  const row = signatures.getByTestId('signature-row').filter({ hasText: name });
  await expect(row).toContainText('^flush$');
  await expect(row).toContainText('CPU samples');
  await expect(row).toContainText('≥ 10% of CPU');
  await expect(row).toContainText('30 min');

  // Changed: 5% and 90 minutes in the form, a share and seconds on the wire.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('form', { name: `Edit signature “${name}”` });
  await expect(edit.getByLabel('Min share')).toHaveValue('10');
  await expect(edit.getByLabel('Cool-down')).toHaveValue('30');
  await edit.getByLabel('Min share').fill('5');
  await edit.getByLabel('Cool-down').fill('90');
  await edit.getByLabel('Description').fill('Flushing on the request path');
  await edit.getByLabel('Cool-down').press('Enter');
  await expect(edit).toBeHidden();
  await expect(row).toContainText('≥ 5% of CPU');
  await expect(row).toContainText('1 h 30 min');
  await expect(row).toContainText('Flushing on the request path');
  const stored = ((await (await request.get('/api/signatures')).json()) as { name: string; min_share: number; cooldown_s: number }[]).find(
    (s) => s.name === name,
  );
  expect(stored).toMatchObject({ min_share: 0.05, cooldown_s: 5400 });

  // A webhook, as the admin the specs sign in as. Nothing listens on the discard port: it fails.
  const webhooks = page.getByTestId('watch-webhooks');
  await webhooks.getByRole('button', { name: 'New webhook' }).click();
  const hookForm = page.getByRole('form', { name: 'New webhook' });
  await hookForm.getByLabel('Name').fill(hook);
  await hookForm.getByLabel('URL').fill('http://127.0.0.1:9/hooks/secret-token');
  await hookForm.getByRole('radio', { name: /alertmanager/ }).check();
  await hookForm.getByLabel('URL').press('Enter');
  await expect(hookForm).toBeHidden();
  const hookRow = webhooks.getByTestId('webhook-row').filter({ hasText: hook });
  await expect(hookRow).toContainText("Alertmanager's POST /api/v2/alerts");
  await expect(hookRow).toContainText('http://127.0.0.1:9/hooks/…');
  await expect(hookRow).not.toContainText('secret-token');

  // A watch capture from a new host: its stream starts, and the signature raises an alert.
  const params = new URLSearchParams({ watch: 'true', host, filename: 'cpu.txt', offset: OFFSET });
  const upload = await request.post(`/api/collector/captures?${params.toString()}`, {
    data: cpuSamples(),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  await waitParsed(request, ((await upload.json()) as { id: number }).id);
  // The signatures are checked just after the capture turns ready.
  await expect
    .poll(async () => ((await (await request.get('/api/alerts')).json()) as { signature: string }[]).some((a) => a.signature === name), {
      timeout: 30_000,
    })
    .toBe(true);

  await page.reload();
  const stream = streams.getByTestId('stream-row').filter({ hasText: host });
  await expect(stream.locator('td.num')).toHaveText('1');
  await expect(stream.getByRole('link', { name: `Captures of ${host}` })).toHaveAttribute('href', /^\/incidents\/\d+$/);
  const alert = alerts.getByTestId('alert-row').filter({ hasText: name });
  await expect(alert).toContainText(host);
  await expect(alert).toContainText(`Signature '${name}' matched on ${host}`);
  await expect(alert).toContainText(hook);
  const evidence = alert.getByRole('link', { name: /^Evidence/ });
  await expect(evidence).toHaveAttribute('href', /^\/flame\?.*captures=\d+/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, 'watch.png');

  // The evidence opens in the console: the stream's flame graph of the matching capture.
  await evidence.click();
  await expect(page).toHaveURL(/\/flame\?/);
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="flush"]').first()).toBeVisible();
  await page.goBack();

  // An incident from the alert; back on the page, the alert links to it.
  await alert.getByRole('button', { name: 'Open incident' }).click();
  await expect(page).toHaveURL(/\/incidents\/\d+$/);
  const incident = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.goBack();
  await expect(alert.getByRole('link', { name: `Incident #${incident}` })).toHaveAttribute('href', `/incidents/${incident}`);

  // Deleted after their confirmation; the signature takes its alert with it.
  acceptNextConfirm(page, /^Delete webhook “e2e hook \d+”\? New alerts are no longer sent to it/);
  await hookRow.getByRole('button', { name: `Delete ${hook}` }).click();
  await expect(hookRow).toBeHidden();
  acceptNextConfirm(page, /^Delete signature “e2e flush \d+” and the alerts it raised\?/);
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(row).toBeHidden();
  await expect(alert).toBeHidden();
});
