/**
 * Guest links and incident visibility: the admin makes a restricted incident from the form (its page
 * shows who may see it), then a guest link limited to the flame view on another; the link's holder,
 * with no account, opens it, sees the guest banner and the capture's flame graph, and nothing else
 * (no timeline tab, no admin pages, no other incident); revoked, the link's next page load says so;
 * the opening is in the audit log.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { corpus, createIncident, saveScreenshot, uploadCapture } from './helpers';
import { e2eCredentials } from './session';

const SIGNED_OUT = { cookies: [], origins: [] };
const CAPTURE = path.join(corpus, 'perf-script', 'flamegraph', 'perf-funcab-cmd-01.txt');

test('a guest link shows one incident’s flame graph until it is revoked', async ({ page, browser, request, baseURL }) => {
  const incident = await createIncident(request, 'guest e2e: vendor look');
  const capture = await uploadCapture(request, incident, CAPTURE);
  const label = `vendor ${Date.now().toString(36)}`;
  const { username } = e2eCredentials();

  // Another incident, restricted to the admin from the new-incident form.
  await page.goto('/incidents');
  await page.getByRole('button', { name: 'New incident' }).click();
  const newIncident = page.getByRole('form', { name: 'New incident' });
  await newIncident.getByLabel('Title').fill('guest e2e: not for the vendor');
  await newIncident.getByLabel('Visible to').selectOption('restricted');
  await newIncident.getByLabel('Members').fill(username);
  await newIncident.getByRole('button', { name: 'Create incident' }).click();
  await expect(page).toHaveURL(/\/incidents\/\d+$/);
  const other = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByTestId('restricted-badge')).toHaveText(`Restricted: ${username}`);

  // The admin makes the link on the incident page, limited to the flame view.
  await page.goto(`/incidents/${incident}`);
  const form = page.getByRole('form', { name: 'New guest link' });
  await form.getByLabel('For').fill(label);
  await form.getByLabel('flame', { exact: true }).check();
  await form.getByRole('button', { name: 'Create guest link' }).click();
  const shown = page.getByTestId('guest-link-url');
  await expect(shown).toHaveText(/\/g\/ssg_/);
  const url = (await shown.textContent()) ?? '';
  expect(new URL(url).origin).toBe(new URL(baseURL ?? '').origin);
  const row = page.locator(`[data-testid="guest-link-row"][data-label="${label}"]`);
  await expect(row).toContainText('flame');
  await expect(row.getByTestId('guest-link-state')).toHaveText('active');
  await saveScreenshot(page, 'guest-link-created.png');

  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  try {
    const guest = await context.newPage();
    await guest.goto(url);
    await expect(guest).toHaveURL(new RegExp(`/incidents/${incident}$`));
    await expect(guest.getByTestId('guest-banner')).toContainText(`Guest view of incident #${incident} (read-only)`);
    await expect(guest.getByTestId('user-menu')).toContainText('guest');
    await saveScreenshot(guest, 'guest-incident.png');

    // The capture's flame graph opens; the timeline is not offered, and the server refuses it.
    await guest.getByRole('link', { name: 'Open CPU flame graph' }).click();
    await expect(guest).toHaveURL(new RegExp(`/flame\\?.*captures=${capture.id}`));
    await expect(guest.locator('[data-testid="flame-chart"] svg g').first()).toBeVisible();
    const tabs = guest.getByRole('navigation', { name: 'Investigation views' });
    await expect(tabs.getByRole('link', { name: 'Flame graph' })).toBeVisible();
    await expect(tabs.getByRole('link', { name: 'Timeline' })).toHaveCount(0);
    await saveScreenshot(guest, 'guest-flame.png');
    const timeline = await context.request.get(`/api/timeline?incident=${incident}`);
    expect(timeline.status()).toBe(403);
    expect(await timeline.text()).toContain('this guest link shows only these views: flame');
    await guest.goto(`/timeline?incident=${incident}`);
    await expect(guest.getByText('This guest link shows only these views: flame.')).toBeVisible();

    // Nothing beyond its incident: not the admin pages, not another incident.
    await guest.goto('/admin/people');
    await expect(guest.getByText(`This guest link opens incident #${incident} only.`)).toBeVisible();
    await expect(guest.getByRole('heading', { name: 'People' })).toHaveCount(0);
    await guest.goto(`/incidents/${other}`);
    await expect(guest.getByText(`This guest link opens incident #${incident} only.`)).toBeVisible();
    expect((await context.request.get(`/api/incidents/${other}`)).status()).toBe(404);
    expect((await context.request.get('/api/users')).status()).toBe(403);

    // The admin revokes it: the guest's next page load says the link ended.
    await page.reload();
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Revoke…' }).click();
    await expect(row.getByTestId('guest-link-state')).toContainText('revoked');
    await guest.goto(`/incidents/${incident}`);
    await expect(guest).toHaveURL(/\/g$/);
    await expect(guest.getByTestId('guest-ended')).toContainText('revoked');
    // The link itself is refused too, with the server's reason.
    await guest.goto(url);
    await expect(guest.getByTestId('guest-link-refused')).toContainText('this guest link was revoked');
    await expect(guest.getByRole('link')).toHaveCount(0);
  } finally {
    await context.close();
  }

  const audit = await request.get(`/api/audit?action=guest-view&incident=${incident}`);
  expect(audit.ok(), await audit.text()).toBe(true);
  const entries = (await audit.json()) as { action: string; incident_id: number | null; actor_name: string }[];
  expect(entries.map((e) => [e.action, e.incident_id, e.actor_name])).toContainEqual(['guest-view', incident, label]);
});
