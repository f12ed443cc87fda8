/**
 * Every page of an incident's data says where it sits, Incidents › the incident (by its title) ›
 * what the page shows (captures by file name), and each crumb but the last leads back up.
 */
import { expect, test, type Page } from '@playwright/test';
import { createIncident, saveScreenshot, uploadCapture } from './helpers';
import { cpuSamples, OFFSET, schedSwitches } from './smallCaptures';

async function crumbs(page: Page): Promise<{ links: { text: string; href: string | null }[]; current: string }> {
  const nav = page.getByTestId('breadcrumbs');
  await expect(nav).toBeVisible();
  const links = await Promise.all(
    (await nav.getByRole('link').all()).map(async (a) => ({ text: (await a.textContent()) ?? '', href: await a.getAttribute('href') })),
  );
  return { links, current: (await nav.locator('[aria-current="page"]').textContent()) ?? '' };
}

test('breadcrumbs on every view, with the incident by name and links back', async ({ page, request }) => {
  const title = `Checkout p99 at 2 s ${Date.now()}`;
  const incident = await createIncident(request, title);
  const cpu = await uploadCapture(request, incident, cpuSamples(), { filename: 'cpu.txt', format: 'perf-script', offset: OFFSET });
  const sched = await uploadCapture(request, incident, schedSwitches(), { filename: 'sched.txt', offset: OFFSET });
  const up = [
    { text: 'Incidents', href: '/' },
    { text: `#${incident} ${title}`, href: `/incidents/${incident}` },
  ];

  const views: [string, string][] = [
    [`/timeline?incident=${incident}`, 'timeline'],
    [`/flame?incident=${incident}&captures=${cpu.id}`, 'flame graph of cpu.txt'],
    [`/flame?incident=${incident}&captures=${sched.id}&source=off-cpu`, 'off-CPU flame graph of sched.txt'],
    [`/diff?incident=${incident}`, 'differential flame graph: B against A'],
    [`/threads?incident=${incident}`, 'thread states'],
    [`/heatmap?incident=${incident}&captures=${cpu.id}`, 'sub-second heatmap of cpu.txt'],
    [`/events?incident=${incident}&captures=${sched.id}`, 'events of sched.txt'],
    [`/metrics?incident=${incident}`, 'metrics of every capture'],
    [`/incidents/${incident}/config-diff`, 'config diff'],
  ];
  for (const [path, here] of views) {
    await page.goto(path);
    await expect(page.getByTestId('breadcrumbs')).toContainText(title);
    const c = await crumbs(page);
    expect(c.links, path).toEqual(up);
    expect(c.current, path).toBe(here);
    if (path.startsWith('/flame?') && path.includes(`captures=${cpu.id}`)) await saveScreenshot(page, 'breadcrumbs-flame.png');
    if (path.startsWith('/threads')) await saveScreenshot(page, 'breadcrumbs-threads.png');
  }

  // The incident page is the incident's own crumb; its parent leads to the list.
  await page.goto(`/incidents/${incident}`);
  await expect(page.getByTestId('breadcrumbs')).toContainText(title);
  const c = await crumbs(page);
  expect(c.links).toEqual([up[0]]);
  expect(c.current).toBe(`#${incident} ${title}`);

  // Up from a view: the incident's crumb opens the incident, "Incidents" the list.
  await page.goto(`/heatmap?incident=${incident}&captures=${cpu.id}`);
  await page.getByTestId('breadcrumbs').getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/incidents/${incident}$`));
  await page.getByTestId('breadcrumbs').getByRole('link', { name: 'Incidents' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Incidents' })).toBeVisible();
});
