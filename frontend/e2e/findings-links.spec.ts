/**
 * The findings' evidence links that lead away from the flame graph and the threads view: each opens
 * a view showing the figure its evidence quotes. The instrumentation lab's bad/fixed pair (a proxy
 * with BPF programs on kprobes, and the same proxy without them) gives the diff link of "what changed"
 * and the snapshot link of the probe finding; the THP lab's two snapshots give the config-diff link
 * of "what changed"; the memory-pressure lab's bad capture gives the metrics link of its PSI
 * evidence, read from the summary under the chart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { findings, firstPercent, uploadFolder } from './findingsHelpers';
import { createIncident, repo, uploadCapture } from './helpers';

const lab = (name: string, side: string): string => path.join(repo, 'lab', name, 'captures', side);

function skipWithout(folder: string): void {
  if (!fs.existsSync(folder)) {
    const reason = `the lab captures are not in ${folder}`;
    console.log(`skipped: ${reason}`);
    test.skip(true, reason);
  }
}

/** "279 samples", "2.79 s", "1,204 ms" as one number in the unit's base (samples, seconds). */
function amount(text: string): number {
  const m = /([\d,]+(?:\.\d+)?)\s*(samples?|ns|µs|us|ms|s)\b/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error(`no amount in “${text}”`);
  const scale: Record<string, number> = { ns: 1e-9, µs: 1e-6, us: 1e-6, ms: 1e-3, s: 1 };
  return Number(m[1].replace(/,/g, '')) * (scale[m[2]] ?? 1);
}

/** A text as a regular expression matching it literally. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Open a finding on the incident page and return its first evidence item labelled `label`. */
async function evidenceOf(page: Page, incident: number, finding: string, label: RegExp): Promise<Locator> {
  await page.goto(`/incidents/${incident}`);
  const item = page.locator(`[data-testid="finding"][data-finding-id="${finding}"]`);
  await item.locator('button[data-finding-head]').click();
  const evidence = item.getByTestId('finding-evidence').filter({ hasText: label });
  await expect(evidence.first()).toBeVisible();
  return evidence.first();
}

/** Once every capture is parsed, compare with `baseline`'s hosts; wait for findings `ids`. */
async function baselineFindings(request: APIRequestContext, incident: number, baseline: string, ids: string[]): Promise<void> {
  await expect
    .poll(async () => (await findings(request, incident)).captures_pending, { timeout: 180_000, intervals: [500, 1000, 2000] })
    .toBe(0);
  const res = await request.put(`/api/incidents/${incident}/findings/baseline`, {
    data: { hosts: [baseline] },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await expect
    .poll(
      async () => {
        const f = await findings(request, incident);
        const found = f.findings.map((x) => x.id);
        return f.state === 'ready' && f.baseline_hosts.join(',') === baseline && ids.every((id) => found.includes(id));
      },
      { timeout: 120_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
}

test('findings links: the diff and snapshot views show what the evidence quotes', async ({ page, request }) => {
  test.setTimeout(240_000);
  skipWithout(lab('instrumentation-overhead', 'bad'));
  skipWithout(lab('instrumentation-overhead', 'fixed'));
  const incident = await createIncident(request, `e2e findings links ${Date.now()}`);
  await uploadFolder(request, incident, lab('instrumentation-overhead', 'bad'), 'bad');
  await uploadFolder(request, incident, lab('instrumentation-overhead', 'fixed'), 'fixed');
  await baselineFindings(request, incident, 'fixed', ['what-changed', 'instrumentation-overhead']);

  // Diff: "CPU: <function>", "32.1% here against 0.0% on the baseline". The view prints the
  // function's B total and B's total; their ratio is the share quoted.
  const changed = await evidenceOf(page, incident, 'what-changed', /^CPU: /);
  const label = await changed.locator('.finding__evidence-label').innerText();
  const fn = label.replace(/^CPU: /, '').replace(/:$/, '');
  const quoted = firstPercent(await changed.getByTestId('finding-evidence-text').innerText());
  await changed.getByTestId('finding-evidence-open').click();
  await expect(page).toHaveURL(/\/diff\?/);
  const status = page.getByTestId('diff-status');
  await expect(status).toContainText(/B\s*[\d,.]+/, { timeout: 60_000 });
  const row = page.getByTestId('diff-row').filter({ has: page.getByRole('button', { name: fn, exact: true }) });
  // Columns: function, A total, B total, Δ total, Δ self, change.
  const bCell = row.locator('td').nth(2);
  await expect(bCell).toContainText(/\d/);
  const statusText = await status.innerText();
  const bTotal = /\bB\s+(.+?)\s+in\s/.exec(statusText)?.[1];
  expect(bTotal, `B's total in “${statusText}”`).toBeTruthy();
  const shown = (100 * amount(await bCell.innerText())) / amount(bTotal ?? '');
  // Both amounts are printed to three significant digits, the evidence to one decimal.
  expect(Math.abs(shown - quoted), `diff view: ${fn} ${await bCell.innerText()} of B's ${bTotal} = ${shown.toFixed(2)}% against the evidence's ${quoted}%`).toBeLessThanOrEqual(0.15);

  // Snapshot: "Probes in the snapshot: 2 kprobe/uprobe entries, e.g. kprobes_list · <probe>". The
  // link opens this host's snapshot, which shows that probe.
  const probes = await evidenceOf(page, incident, 'instrumentation-overhead', /^Probes in the snapshot/);
  const example = /e\.g\. (.+)$/.exec(await probes.getByTestId('finding-evidence-text').innerText())?.[1] ?? '';
  const probe = example.split(' · ').slice(1).join(' · ');
  expect(probe, `a probe quoted in “${example}”`).not.toBe('');
  await probes.getByTestId('finding-evidence-open').click();
  await expect(page).toHaveURL(/\/captures\/\d+\/snapshot$/);
  const capture = Number(/\/captures\/(\d+)\//.exec(page.url())?.[1]);
  expect((await (await request.get(`/api/captures/${capture}`)).json()) as { host: string }).toMatchObject({ host: 'bad' });
  await expect(page.getByTestId('snapshot-section').getByText(probe, { exact: false }).first(), `${probe} shown in the snapshot`).toBeVisible({ timeout: 30_000 });
});

test('findings links: the config-diff view lists the setting the evidence quotes', async ({ page, request }) => {
  // The instrumentation pair differs in no setting with a known stall behind it (its probes are
  // added, not changed), so this takes the THP lab's two snapshots alone: two small uploads.
  const bad = path.join(lab('thp-compaction', 'bad'), 'snapshot.json');
  const fixed = path.join(lab('thp-compaction', 'fixed'), 'snapshot.json');
  skipWithout(bad);
  skipWithout(fixed);
  const incident = await createIncident(request, `e2e findings config link ${Date.now()}`);
  await uploadCapture(request, incident, bad, { host: 'bad' });
  await uploadCapture(request, incident, fixed, { host: 'fixed' });
  await baselineFindings(request, incident, 'fixed', ['what-changed']);

  // "Setting <section> <key>", "<value> here, <other> on the baseline". The link names both
  // snapshots (the baseline's as A, this host's as B); the view lists that setting as changed, with
  // those values, and its pickers name the hosts the captures were uploaded under.
  const setting = await evidenceOf(page, incident, 'what-changed', /^Setting /);
  const [section = '', ...keyParts] = (await setting.locator('.finding__evidence-label').innerText()).replace(/^Setting /, '').replace(/:$/, '').split(' ');
  const key = keyParts.join(' ');
  const values = /^(.*) here, (.*) on the baseline$/s.exec(await setting.getByTestId('finding-evidence-text').innerText());
  expect(values, 'the setting evidence quotes both values').not.toBeNull();
  await setting.getByTestId('finding-evidence-open').click();
  await expect(page).toHaveURL(new RegExp(`/incidents/${incident}/config-diff\\?`));
  const sides = new URL(page.url()).searchParams;
  expect([sides.get('a'), sides.get('b')], 'the config-diff link names both snapshots').toEqual([expect.stringMatching(/^\d+/), expect.stringMatching(/^\d+/)]);
  await expect(page.getByTestId('config-diff-summary')).toContainText(/\d+ settings? differs?/, { timeout: 60_000 });
  await expect(page.getByLabel('A (baseline)').locator('option:checked')).toContainText('host fixed');
  await expect(page.getByLabel('B (compared)').locator('option:checked')).toContainText('host bad');
  const settingRow = page
    .getByTestId('config-diff-changed')
    .locator('tbody tr')
    .filter({ has: page.locator('td:nth-child(1)', { hasText: new RegExp(`^${escape(section)}$`) }) })
    .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${escape(key)}`) }) });
  await expect(settingRow, `${section} ${key} listed as changed`).toHaveCount(1);
  await expect(settingRow.locator('td.config-diff-a')).toHaveText(values?.[2] ?? '');
  await expect(settingRow.locator('td.config-diff-b')).toHaveText(values?.[1] ?? '');

});

test('findings links: the metrics view shows the PSI peak and mean the evidence quotes', async ({ page, request }) => {
  test.setTimeout(180_000);
  const folder = lab('memory-pressure', 'bad');
  skipWithout(folder);
  const incident = await createIncident(request, `e2e findings metrics link ${Date.now()}`);
  await uploadFolder(request, incident, folder, 'bad');
  await expect
    .poll(
      async () => {
        const f = await findings(request, incident);
        return f.state === 'ready' && f.captures_pending === 0 && f.findings.some((x) => x.id === 'memory-pressure');
      },
      { timeout: 150_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);

  // "some avg10 peaked at 10.6% (mean 9.6%)", linked to the series by name on the host.
  const psi = await evidenceOf(page, incident, 'memory-pressure', /^Memory pressure \(PSI\)/);
  const quoted = /peaked at ([\d.]+)% \(mean ([\d.]+)%\)/.exec(await psi.getByTestId('finding-evidence-text').innerText());
  expect(quoted, 'the PSI evidence quotes a peak and a mean').not.toBeNull();
  const [peak, mean] = [Number(quoted?.[1]), Number(quoted?.[2])];
  const link = psi.getByTestId('finding-evidence-open');
  const name = new URL((await link.getAttribute('href')) ?? '', page.url()).searchParams.get('show') ?? '';
  expect(name).toMatch(/^pressure\.memory\./);
  await link.click();
  // The page turns the name into the series' id, then draws it without picking it by hand.
  await expect(page).toHaveURL(/\/metrics\?.*\bseries=\d+/, { timeout: 30_000 });
  expect(new URL(page.url()).searchParams.has('show')).toBe(false);
  await expect(page.getByTestId('metric-legend'), `the metrics link draws ${name}`).toContainText(name);

  // The summary under the chart: one row, the series on host bad, its max and mean over the range.
  const rows = page.getByTestId('metric-summary').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`bad · `);
  const figure = async (stat: string): Promise<number> => Number(/-?[\d,]*\.?\d+/.exec(await rows.first().locator(`[data-stat="${stat}"]`).innerText())?.[0].replace(/,/g, ''));
  const [shownPeak, shownMean] = [await figure('max'), await figure('mean')];
  // The evidence is rounded to 0.1, the view to three significant digits: each within 0.05 of the truth.
  expect(Math.abs(shownPeak - peak), `metrics view max ${shownPeak}% against the evidence's peak ${peak}%`).toBeLessThanOrEqual(0.1);
  expect(Math.abs(shownMean - mean), `metrics view mean ${shownMean}% against the evidence's mean ${mean}%`).toBeLessThanOrEqual(0.1);
});
