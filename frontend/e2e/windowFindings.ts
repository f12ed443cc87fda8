/**
 * Findings of a time window on the timeline, checked on an incident holding the mmap_lock lab's bad
 * and fixed captures (hosts `bad` and `fixed`): the timeline opened on exactly the bad host's time
 * and the window asked for. The bad captures were recorded first, so nothing comes before the window:
 * it is compared with the time after it (the fixed run), mmap_lock contention is named, and its
 * evidence opens the flame graph on the window.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { saveScreenshot } from './helpers';

const FINDING = 'mmap-lock-contention';

interface CaptureTimes {
  host: string | null;
  time_start: string | null;
  time_end: string | null;
}

/** ISO 8601 with up to µs → epoch µs (Date keeps only ms). */
function epochUs(iso: string): number {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/.exec(iso);
  if (!m?.[1] || !m[3]) throw new Error(`not an ISO time: ${iso}`);
  return Date.parse(`${m[1]}${m[3]}`) * 1000 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
}

/** Epoch µs → ISO 8601 UTC with six fraction digits. */
function isoUs(us: number): string {
  const whole = Math.floor(us / 1e6);
  return `${new Date(whole * 1000).toISOString().slice(0, 19)}.${String(us - whole * 1e6).padStart(6, '0')}Z`;
}

export async function checkWindowFindings(page: Page, request: APIRequestContext, incident: number): Promise<void> {
  // The bad host's time range, end made exclusive.
  const res = await request.get(`/api/incidents/${incident}/captures`);
  expect(res.ok(), await res.text()).toBe(true);
  const bad = ((await res.json()) as CaptureTimes[]).filter((c) => c.host === 'bad' && c.time_start && c.time_end);
  expect(bad.length, 'timed captures on host bad').toBeGreaterThan(0);
  const fromUs = Math.min(...bad.map((c) => epochUs(c.time_start ?? '')));
  const toUs = Math.max(...bad.map((c) => epochUs(c.time_end ?? ''))) + 1;
  const range = new URLSearchParams({ incident: String(incident), from: isoUs(fromUs), to: isoUs(toUs) });

  await page.goto(`/timeline?${range.toString()}`);
  const panel = page.getByTestId('window-findings');
  await expect(panel.getByTestId('window-findings-side')).toHaveValue('before');
  await panel.getByRole('button', { name: 'Find causes in this window' }).click();

  const compared = panel.getByTestId('window-findings-compared');
  await expect(compared).toContainText('(the time after', { timeout: 60_000 });
  await expect(panel.getByTestId('window-findings-notes')).toContainText('Nothing comes before the window');
  const ids = await panel.getByTestId('finding').evaluateAll((items) => items.map((i) => i.getAttribute('data-finding-id')));
  expect(ids.slice(0, 3), `window findings: ${ids.join(', ')}`).toContain(FINDING);
  const item = panel.locator(`[data-testid="finding"][data-finding-id="${FINDING}"]`);
  await item.locator('button[data-finding-head]').click();
  await expect(item.getByTestId('finding-detail')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Confirm', exact: true })).toHaveCount(0);
  await saveScreenshot(page, 'findings-window.png');

  await item.getByTestId('finding-open').click();
  await expect(page).toHaveURL(/\/flame\?.*\bfrom=/);
}
