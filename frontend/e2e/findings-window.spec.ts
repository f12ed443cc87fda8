/**
 * Findings of a time window on the timeline: the mmap_lock lab's bad and fixed captures in one
 * incident, the timeline opened on exactly the bad host's time, and the window asked for. The bad
 * captures were recorded first, so nothing comes before the window: it is compared with the time
 * after it (the fixed run), mmap_lock contention is named, and its evidence opens the flame graph on
 * the window.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { findings, uploadFolder } from './findingsHelpers';
import { createIncident, repo, saveScreenshot } from './helpers';

const lab = path.join(repo, 'lab', 'mmap-lock-contention', 'captures');
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

test('findings in a window: the bad host’s time against the time after it', async ({ page, request }) => {
  test.setTimeout(240_000);
  for (const side of ['bad', 'fixed']) {
    if (!fs.existsSync(path.join(lab, side))) {
      const reason = `the lab's ${side} captures are not in ${lab}`;
      console.log(`skipped: ${reason}`);
      test.skip(true, reason);
    }
  }
  const incident = await createIncident(request, `e2e window findings ${Date.now()}`);
  await uploadFolder(request, incident, path.join(lab, 'bad'), 'bad');
  await uploadFolder(request, incident, path.join(lab, 'fixed'), 'fixed');
  await expect
    .poll(
      async () => {
        const f = await findings(request, incident);
        return f.state !== 'computing' && f.captures_pending === 0;
      },
      { timeout: 180_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);

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
});
