/**
 * People and permissions: the sign-in gate and its way back to the asked-for page, a session that
 * ends under an open page, an admin adding a viewer who then cannot change anything, and the audit
 * log telling who added them.
 */
import { expect, test, type Page } from '@playwright/test';
import { createIncident, saveScreenshot } from './helpers';
import { e2eCredentials } from './session';

const SIGNED_OUT = { cookies: [], origins: [] };

async function signIn(page: Page, username: string, password: string): Promise<void> {
  const name = page.getByLabel('Name');
  await expect(name).toBeFocused();
  await name.fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

test.describe('signed out', () => {
  test.use({ storageState: SIGNED_OUT });

  test('the sign-in page guards the console and comes back to the page asked for', async ({ page }) => {
    const { username, password } = e2eCredentials();
    await page.goto('/incidents');
    await expect(page).toHaveURL(/\/login\?next=%2Fincidents$/);

    await signIn(page, username, 'not the password');
    await expect(page.getByRole('alert')).toContainText('wrong user name or password');
    await saveScreenshot(page, 'auth-sign-in.png');
    await expect(page).toHaveURL(/\/login/);

    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Password').press('Enter');
    await expect(page).toHaveURL(/\/incidents$/);
    await expect(page.getByRole('heading', { name: 'Incidents', level: 1 })).toBeVisible();
    await expect(page.getByTestId('user-menu')).toContainText(username);

    // The session ends under the open page: the next request's 401 asks to sign in again, keeping the URL.
    await page.context().clearCookies();
    await page.getByTestId('user-menu').locator('summary').click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Personal API tokens' })).toBeVisible();

    await page.getByTestId('user-menu').locator('summary').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Signed out on the server too, not only in this page.
    await page.goto('/incidents');
    await expect(page).toHaveURL(/\/login\?next=%2Fincidents$/);
  });
});

test.describe('as the admin', () => {
  test.describe.configure({ mode: 'serial' });
  const viewer = `viewer-${Date.now().toString(36)}`;
  const viewerPassword = 'a viewer password';

  test('a viewer the admin adds signs in through a short link and cannot change incidents', async ({ page, browser, request, baseURL }) => {
    const incident = await createIncident(request, 'auth e2e: read only');
    await page.goto('/admin/people');
    const form = page.getByRole('form', { name: 'Add a person' });
    await form.getByLabel('Name').fill(viewer);
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByLabel('Password').fill(viewerPassword);
    await form.getByRole('button', { name: 'Add person' }).click();
    const row = page.locator(`[data-testid="person-row"][data-user="${viewer}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByLabel(`Role of ${viewer}`)).toHaveValue('viewer');
    await saveScreenshot(page, 'auth-people.png');

    const share = await request.post('/api/shares', { data: { target: `/incidents/${incident}` } });
    expect(share.ok(), await share.text()).toBe(true);
    const { path: shortLink } = (await share.json()) as { path: string };

    const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
    try {
      // The admin's short link, opened signed out: sign in first, then it goes where it points.
      const as = await context.newPage();
      await as.goto(shortLink);
      await expect(as).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(shortLink)}$`));
      await signIn(as, viewer, viewerPassword);
      await expect(as).toHaveURL(new RegExp(`/incidents/${incident}$`));
      await expect(as.getByRole('heading', { name: 'Captures' })).toBeVisible();
      await expect(as.getByTestId('upload-not-allowed')).toContainText('viewers cannot upload captures');
      await expect(as.getByRole('button', { name: /Upload files/ })).toHaveCount(0);
      await saveScreenshot(as, 'auth-viewer-incident.png');

      await as.goto('/');
      await expect(as.getByRole('heading', { name: 'Incidents', level: 1 })).toBeVisible();
      await expect(as.getByTestId('user-menu')).toContainText('viewer');
      const create = as.getByRole('button', { name: 'New incident' });
      await expect(create).toBeDisabled();
      await expect(create).toHaveAttribute('title', 'viewers cannot change incidents');
      await expect(as.getByRole('link', { name: 'API tokens' })).toHaveCount(0);

      // The server agrees, whatever the page shows.
      const res = await context.request.post('/api/incidents', {
        data: { title: 'not allowed', severity: 'sev3', started_at: new Date().toISOString() },
      });
      expect(res.status()).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/may not change incidents/);
    } finally {
      await context.close();
    }
  });

  test('the audit log tells who added the viewer', async ({ page }) => {
    const { username } = e2eCredentials();
    await page.goto('/admin/audit');
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByLabel('Actor').fill(username);
    await filters.getByLabel('Action').fill('create');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/audit\\?actor=${username}&action=create$`));
    const entry = page.getByTestId('audit-row').filter({ hasText: `name=${viewer}` });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('user');
    await expect(entry).toContainText('role=viewer');
    await saveScreenshot(page, 'auth-audit.png');

    // Collector tokens, with their new limits, as the admin sees them.
    await page.getByTestId('user-menu').locator('summary').click();
    await page.getByRole('menuitem', { name: 'Collector tokens' }).click();
    await page.getByLabel('Name').fill('db hosts');
    await page.getByLabel('Only host').fill('db-1');
    await page.getByLabel('Expires after').selectOption('30 days');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByTestId('token-secret')).toContainText('db hosts');
    await expect(page.getByTestId('tokens-table')).toContainText('host db-1');
    await saveScreenshot(page, 'auth-collector-tokens.png');
  });
});
