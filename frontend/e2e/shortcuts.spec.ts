/**
 * `?` lists the keyboard shortcuts of the view it is pressed on, read from the same lists the views'
 * key handlers read: the flame graph's, the timeline's, the heatmap grid's and the thread table's.
 * Esc closes the list without reaching the view behind it, and `?` typed into a field is text.
 */
import { expect, test, type Page } from '@playwright/test';
import { createIncident, saveScreenshot, uploadCapture } from './helpers';
import { cpuSamples, OFFSET, schedSwitches } from './smallCaptures';

/** The help's rows under one heading, each as the keys it shows. */
async function listedKeys(page: Page, title: string): Promise<string[][]> {
  const group = page.locator(`[data-testid="shortcut-group"][data-title="${title}"]`);
  await expect(group.first()).toBeVisible();
  const rows = await group.locator('[data-testid="shortcut"]').all();
  return Promise.all(rows.map((row) => row.locator('kbd').allTextContents()));
}

const groupTitles = (page: Page) => page.locator('[data-testid="shortcut-group"] h3').allTextContents();

test('? shows the shortcuts of the view at hand', async ({ page, request }) => {
  const incident = await createIncident(request, `shortcuts e2e ${Date.now()}`);
  await uploadCapture(request, incident, cpuSamples(), { filename: 'cpu.txt', format: 'perf-script', offset: OFFSET });
  await uploadCapture(request, incident, schedSwitches(), { filename: 'sched.txt', offset: OFFSET });
  const help = page.getByTestId('shortcut-help');

  // The flame graph: its Esc, the frame search's keys, the share menu's, the help's own.
  await page.goto(`/flame?incident=${incident}&q=flush`);
  await expect(page.locator('[data-testid="flame-chart"] g.frame[name="flush"]').first()).toBeVisible();
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  expect(await groupTitles(page)).toEqual(['Flame graph', 'Frame search', 'Frame search · in the search field', 'Share', 'Anywhere']);
  expect(await listedKeys(page, 'Flame graph')).toEqual([['Esc']]);
  expect(await listedKeys(page, 'Share')).toEqual([['s']]);
  await expect(help).toContainText('Zoom out to the root and clear the frame search');
  await saveScreenshot(page, 'shortcuts-flame.png');

  // Esc closes the list only: the search it would clear in the view stays.
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(page).toHaveURL(/[?&]q=flush/);
  // The listed keys do what the list says: Esc clears the search, / jumps to it.
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/[?&]q=/);
  await page.keyboard.press('/');
  await expect(page.getByTestId('flame-search')).toBeFocused();
  // In a text field, ? is a character.
  await page.keyboard.type('?');
  await expect(page.getByTestId('flame-search')).toHaveValue('?');
  await expect(help).toBeHidden();

  // The timeline's keys, through the button in the top bar (for people who do not know `?`).
  await page.goto(`/timeline?incident=${incident}`);
  await expect(page.getByTestId('timeline-status')).toBeVisible();
  await page.getByTestId('shortcut-help-button').click();
  await expect(help).toBeVisible();
  expect(await listedKeys(page, 'Timeline')).toEqual([['+', '='], ['-', '_'], ['0'], ['['], [']'], ['a'], ['Esc']]);
  await saveScreenshot(page, 'shortcuts-timeline.png');
  await page.keyboard.press('?');
  await expect(help).toBeHidden();

  // The heatmap: the page's Esc and the grid's own keys.
  await page.goto(`/heatmap?incident=${incident}`);
  await expect(page.getByTestId('heatmap-grid')).toBeVisible();
  await page.keyboard.press('?');
  expect(await listedKeys(page, 'Heatmap')).toEqual([['Esc']]);
  expect(await listedKeys(page, 'Heatmap grid')).toEqual([
    ['←', '→', '↑', '↓'],
    ['Shift+←', 'Shift+→', 'Shift+↑', 'Shift+↓'],
    ['Home', 'End'],
    ['PgUp', 'PgDn'],
    ['Enter', 'Space'],
    ['Esc'],
  ]);
  await page.keyboard.press('Escape');

  // The threads: Esc closes a thread's details; the table's rows take arrows and Enter.
  await page.goto(`/threads?incident=${incident}`);
  await expect(page.getByTestId('thread-row').first()).toBeVisible();
  await page.keyboard.press('?');
  expect(await listedKeys(page, 'Threads')).toEqual([['Esc']]);
  expect(await listedKeys(page, 'Thread table')).toEqual([['↓'], ['↑'], ['Enter']]);
  await saveScreenshot(page, 'shortcuts-threads.png');
});
