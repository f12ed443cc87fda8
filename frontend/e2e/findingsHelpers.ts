/**
 * Set-up shared by the findings specs: a lab folder's captures uploaded under one host, the findings
 * answer read through the API, and the first percentage of an evidence text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';

/** The lab folder's files, every one: the console decides which it can read. */
export function folderFiles(folder: string): string[] {
  return fs
    .readdirSync(folder)
    .map((name) => path.join(folder, name))
    .filter((file) => fs.statSync(file).isFile())
    .sort();
}

/** Upload every file of a folder under one host; returns the capture ids. */
export async function uploadFolder(request: APIRequestContext, incident: number, folder: string, host: string): Promise<number[]> {
  const ids: number[] = [];
  for (const file of folderFiles(folder)) {
    const params = new URLSearchParams({ filename: path.basename(file), host });
    const res = await request.post(`/api/incidents/${incident}/captures?${params.toString()}`, {
      data: fs.readFileSync(file),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.ok(), `${file}: ${await res.text()}`).toBe(true);
    ids.push(((await res.json()) as { id: number }).id);
  }
  return ids;
}

export interface FindingsAnswer {
  state: string;
  baseline_hosts: string[];
  captures_pending: number;
  findings: { id: string; severity: string; hosts: string[] }[];
}

export async function findings(request: APIRequestContext, incident: number): Promise<FindingsAnswer> {
  const res = await request.get(`/api/incidents/${incident}/findings`);
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as FindingsAnswer;
}

/** The first percentage in a text, as a number of percent: "41.2% of …" → 41.2. */
export function firstPercent(text: string): number {
  const m = /(\d+(?:\.\d+)?)%/.exec(text);
  if (!m?.[1]) throw new Error(`no percentage in “${text}”`);
  return Number(m[1]);
}
