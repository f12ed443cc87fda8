/**
 * Set-up shared by the view specs: incidents and captures made through the API (the upload UI has its
 * own test in console.spec.ts), so each spec spends its time on the view it is about.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const corpus = process.env.STALLSCOPE_CORPUS ?? path.join(repo, '..', 'shared', 'corpus');
export const artifacts = path.join(here, 'artifacts');

export interface CaptureInfo {
  id: number;
  status: string;
  host: string | null;
  time_start: string | null;
  time_end: string | null;
}

export async function createIncident(request: APIRequestContext, title: string): Promise<number> {
  const res = await request.post('/api/incidents', {
    data: { title, severity: 'sev2', started_at: new Date().toISOString() },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { id: number }).id;
}

export interface UploadOptions {
  host?: string;
  /** Skip content detection, e.g. `perf-script`. */
  format?: string;
  /** Seconds to add to the capture's times (an offset given at upload). */
  offset?: string;
  /** The upload's name; defaults to the file's. */
  filename?: string;
}

/** Upload `body` (a file path or bytes) and wait until it is parsed; returns the parsed capture. */
export async function uploadCapture(
  request: APIRequestContext,
  incident: number,
  body: string | Buffer,
  options: UploadOptions = {},
): Promise<CaptureInfo> {
  const data = typeof body === 'string' ? fs.readFileSync(body) : body;
  const filename = options.filename ?? (typeof body === 'string' ? path.basename(body) : 'capture.txt');
  const params = new URLSearchParams({ filename, host: options.host ?? 'e2e-host' });
  if (options.format) params.set('format', options.format);
  if (options.offset) params.set('offset', options.offset);
  const res = await request.post(`/api/incidents/${incident}/captures?${params.toString()}`, {
    data,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { id } = (await res.json()) as { id: number };
  return waitParsed(request, id);
}

export async function waitParsed(request: APIRequestContext, id: number): Promise<CaptureInfo> {
  // Written by the poll's callback: an object, so the check below is not narrowed away.
  const last: { capture: CaptureInfo | null } = { capture: null };
  await expect
    .poll(
      async () => {
        last.capture = (await (await request.get(`/api/captures/${id}`)).json()) as CaptureInfo;
        return last.capture.status;
      },
      { timeout: 90_000, intervals: [250, 500, 1000] },
    )
    .toMatch(/^(ready|partial|empty|failed)$/);
  const parsed = last.capture;
  if (parsed === null) throw new Error(`capture ${id} never answered`);
  expect(parsed.status, `capture ${id} failed to parse`).not.toBe('failed');
  return parsed;
}

/** A full-page screenshot under e2e/artifacts/ (copied to the repository's artifacts/ by scripts/e2e). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.mouse.move(5, 5);
  await page.screenshot({ path: path.join(artifacts, name), fullPage: true });
}

/** How many `performance.measure` entries of this name the page has recorded. */
export async function measureCount(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n, 'measure').length, name);
}

/**
 * Record Content-Security-Policy violations on every page the test opens; call before `goto`. The
 * console sends a CSP without inline script, so anything the UI does that the policy forbids (an
 * inline handler, a `javascript:` URL, a style the policy does not allow) shows up here.
 */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
}
