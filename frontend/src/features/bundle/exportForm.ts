/**
 * The export dialog's choices and the request they make. Pure, so what is sent for each choice is
 * tested without a browser; the request's JSON is also the preview's key, which is how the dialog
 * knows a preview no longer matches the choices.
 */
import type { BundleRequest, RedactionMode, RedactionPolicy } from '../../api/bundle';
import type { Capture } from '../../api/types';

export interface ExportChoices {
  /** Captures left out; every other parsed capture goes in, including ones parsed after opening. */
  unticked: ReadonlySet<number>;
  /** ISO 8601 text as typed; blank: no bound. */
  start: string;
  end: string;
  findings: boolean;
  annotations: boolean;
  postmortem: boolean;
  raw: boolean;
  /** Saved views (short link ids, or their `/s/<id>` links) as typed, comma- or space-separated. */
  views: string;
  mode: RedactionMode;
  /** The policy as edited from a preview; sent with mode `custom`. */
  policy: RedactionPolicy | null;
}

export const initialChoices = (): ExportChoices => ({
  unticked: new Set(),
  start: '',
  end: '',
  findings: true,
  annotations: true,
  postmortem: true,
  raw: false,
  views: '',
  mode: 'default',
  policy: null,
});

/** The captures a bundle can hold: the parsed ones (the server leaves the others out). */
export const exportable = (captures: readonly Capture[]): Capture[] =>
  captures.filter((c) => c.status === 'ready' || c.status === 'partial' || c.status === 'empty');

export interface HostGroup {
  host: string;
  captures: Capture[];
}

/** Captures by host, hosts in name order, a host's captures in upload order; no host last. */
export function byHost(captures: readonly Capture[]): HostGroup[] {
  const groups = new Map<string, Capture[]>();
  for (const c of captures) {
    const host = c.host ?? '';
    groups.set(host, [...(groups.get(host) ?? []), c]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
    .map(([host, list]) => ({ host, captures: [...list].sort((x, y) => x.id - y.id) }));
}

const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A typed instant as UTC ISO; blank is null. Without a zone it is UTC, as the console shows times. */
export function parseInstant(text: string): { iso: string | null } | { problem: string } {
  const t = text.trim();
  if (t === '') return { iso: null };
  const m = ISO.exec(t);
  if (!m?.[1]) return { problem: `“${t}” is not an ISO 8601 time, e.g. 2024-05-01T10:15:00Z` };
  const zone = (m[3] ?? 'Z').toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00'}${zone}`);
  if (Number.isNaN(ms)) return { problem: `“${t}” is not a valid time` };
  return { iso: new Date(ms).toISOString() };
}

export type RequestResult = { request: BundleRequest } | { problem: string };

/** The request the choices make, or what stops them making one. */
export function bundleRequest(choices: ExportChoices, captures: readonly Capture[]): RequestResult {
  const all = exportable(captures);
  const chosen = all.filter((c) => !choices.unticked.has(c.id)).map((c) => c.id);
  if (all.length > 0 && chosen.length === 0) return { problem: 'Tick at least one capture.' };
  const start = parseInstant(choices.start);
  if ('problem' in start) return { problem: `From: ${start.problem}` };
  const end = parseInstant(choices.end);
  if ('problem' in end) return { problem: `To: ${end.problem}` };
  if (start.iso !== null && end.iso !== null && end.iso <= start.iso) return { problem: 'The time range ends before it starts.' };
  const request: BundleRequest = {
    findings: choices.findings,
    annotations: choices.annotations,
    postmortem: choices.postmortem,
    raw: choices.raw,
    redaction: choices.mode === 'custom' && choices.policy !== null ? { mode: 'custom', policy: choices.policy } : { mode: choices.mode === 'none' ? 'none' : 'default' },
  };
  if (chosen.length < all.length) request.captures = chosen;
  if (start.iso !== null) request.start = start.iso;
  if (end.iso !== null) request.end = end.iso;
  const views = savedViews(choices.views);
  if (views.length > 0) request.views = views;
  return { request };
}

/** Short link ids from what was typed or pasted: `Xk3d9aQe`, `/s/Xk3d9aQe` or a whole URL, in order, once each. */
export function savedViews(text: string): string[] {
  const ids = text
    .split(/[\s,]+/)
    .map((part) => part.replace(/^.*\/s\//, '').replace(/[?#].*$/, ''))
    .filter((id) => id !== '');
  return [...new Set(ids)];
}

/** Equal for requests that export the same thing: a preview made for one key is stale for another. */
export const requestKey = (request: BundleRequest): string => JSON.stringify(request);
