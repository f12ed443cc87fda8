/**
 * The selection every investigation view shares: which incident and captures, which time range,
 * which process or thread. It lives in the URL under the same keys on every view, so a brush on the
 * timeline, a click on a thread, or a pasted link moves every view at once; each view adds its own
 * keys beside these and leaves these alone.
 *
 * Times are UTC instants in the URL as ISO 8601 with microseconds (`from=2026-11-21T08:00:01.123456Z`,
 * readable in a postmortem) and epoch microseconds in code: a double holds them exactly, and views
 * zoom down to tens of microseconds, below what `Date` keeps. A capture nothing aligned keeps its own
 * clock, written as seconds (`from=13061.862016s`), never as a 1970 date.
 */

import { captureClockFromText, isCaptureClock } from './captureClock';

export type EpochUs = number;

/** Offsets inside every wall-clock second, [startUs, endUs) — or outside them: a heatmap row band. */
export interface WithinSecond {
  startUs: number;
  endUs: number;
  outside: boolean;
}

export interface Selection {
  incident: number | null;
  /** Capture ids; empty = every capture of the incident. */
  captures: number[];
  /** Host names; empty = every host. */
  hosts: string[];
  /** Inclusive start, epoch µs UTC; null = from the first event. */
  fromUs: EpochUs | null;
  /** Exclusive end, epoch µs UTC; null = to the last event. */
  toUs: EpochUs | null;
  pid: number | null;
  tid: number | null;
  comm: string | null;
  /** Heatmap rows: only (or all but) these offsets within each second; null = the whole second. */
  within: WithinSecond | null;
}

export const EMPTY_SELECTION: Selection = {
  incident: null,
  captures: [],
  hosts: [],
  fromUs: null,
  toUs: null,
  pid: null,
  tid: null,
  comm: null,
  within: null,
};

/** The URL keys the selection owns; views must not use them for anything else. */
export const SELECTION_KEYS = ['incident', 'captures', 'hosts', 'from', 'to', 'pid', 'tid', 'comm', 'within'] as const;

const ISO_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;

/** "2026-11-21T08:00:01.123456Z" → epoch µs (digits past µs are dropped); null if not ISO 8601. */
export function epochUsFromIso(iso: string): EpochUs | null {
  const m = ISO_RE.exec(iso.trim());
  if (!m) return null;
  const [, whole, fraction = '', zone] = m;
  const ms = Date.parse(`${whole}${zone}`);
  if (Number.isNaN(ms)) return null;
  return ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** Epoch µs → "2026-11-21T08:00:01.123456Z" (always six fraction digits, always UTC). */
export function isoFromEpochUs(us: EpochUs): string {
  const whole = Math.floor(us / 1_000_000);
  const micros = Math.round(us - whole * 1_000_000);
  const base = new Date(whole * 1000).toISOString().slice(0, 19);
  return `${base}.${String(micros).padStart(6, '0')}Z`;
}

/** An instant as a person reads and types it, in URLs and fields: ISO 8601 UTC when wall-clock,
 * "13061.862016s" on a capture's own clock (see captureClock.ts: never a 1970 date). */
export function instantText(us: EpochUs): string {
  return isCaptureClock(us) ? `${(us / 1e6).toFixed(6)}s` : isoFromEpochUs(us);
}

/** The inverse of `instantText`; null when the text is neither shape. */
export function instantFromText(text: string): EpochUs | null {
  return epochUsFromIso(text) ?? captureClockFromText(text);
}

const WITHIN_RE = /^(!?)(\d+)-(\d+)$/;

/** `0-20000` (inside) or `!0-20000` (outside), µs; null when malformed or out of [0, 1 s]. */
export function parseWithin(raw: string): WithinSecond | null {
  const m = WITHIN_RE.exec(raw.trim());
  if (!m) return null;
  const startUs = Number(m[2]);
  const endUs = Number(m[3]);
  if (!(startUs < endUs && endUs <= 1_000_000)) return null;
  return { startUs, endUs, outside: m[1] === '!' };
}

export const formatWithin = (w: WithinSecond): string => `${w.outside ? '!' : ''}${w.startUs}-${w.endUs}`;

export interface DecodedSelection {
  selection: Selection;
  warnings: string[];
}

export function readSelection(input: URLSearchParams | string): DecodedSelection {
  const p = new URLSearchParams(input);
  const warnings: string[] = [];
  const int = (name: string): number | null => {
    const raw = p.get(name);
    if (raw === null || raw === '') return null;
    const n = Number(raw);
    if (!Number.isInteger(n)) {
      warnings.push(`Ignored ${name}="${raw}": not a whole number.`);
      return null;
    }
    return n;
  };
  const time = (name: string): EpochUs | null => {
    const raw = p.get(name);
    if (raw === null || raw === '') return null;
    const us = instantFromText(raw);
    if (us === null) warnings.push(`Ignored ${name}="${raw}": not an ISO 8601 time such as 2026-11-21T08:00:01.5Z (or capture-clock seconds such as 13061.5s).`);
    return us;
  };
  const captures: number[] = [];
  for (const part of (p.get('captures') ?? '').split(',')) {
    if (part.trim() === '') continue;
    const n = Number(part);
    if (Number.isInteger(n) && n > 0) {
      if (!captures.includes(n)) captures.push(n);
    } else warnings.push(`Ignored capture id "${part}".`);
  }
  const hosts = (p.get('hosts') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h, i, all) => h !== '' && all.indexOf(h) === i);
  let fromUs = time('from');
  let toUs = time('to');
  if (fromUs !== null && toUs !== null && toUs <= fromUs) {
    warnings.push('Ignored the time range: it ends before it starts.');
    fromUs = null;
    toUs = null;
  }
  const rawWithin = p.get('within');
  let within: WithinSecond | null = null;
  if (rawWithin) {
    within = parseWithin(rawWithin);
    if (within === null) warnings.push(`Ignored within="${rawWithin}": expected µs offsets such as 0-20000 or !0-20000.`);
  }
  return {
    selection: {
      incident: int('incident'),
      captures,
      hosts,
      fromUs,
      toUs,
      pid: int('pid'),
      tid: int('tid'),
      comm: p.get('comm') || null,
      within,
    },
    warnings,
  };
}

/** Write `s` into `p` in place: selection keys set or removed, every other key untouched. */
export function writeSelection(p: URLSearchParams, s: Selection): URLSearchParams {
  for (const key of SELECTION_KEYS) p.delete(key);
  if (s.incident !== null) p.set('incident', String(s.incident));
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.hosts.length > 0) p.set('hosts', s.hosts.join(','));
  if (s.fromUs !== null) p.set('from', instantText(s.fromUs));
  if (s.toUs !== null) p.set('to', instantText(s.toUs));
  if (s.pid !== null) p.set('pid', String(s.pid));
  if (s.tid !== null) p.set('tid', String(s.tid));
  if (s.comm) p.set('comm', s.comm);
  if (s.within) p.set('within', formatWithin(s.within));
  return p;
}

/** Only the selection's keys of a query string: what carries over when the user switches view. */
export function selectionOnly(input: URLSearchParams | string): URLSearchParams {
  return writeSelection(new URLSearchParams(), readSelection(input).selection);
}

/** `path` with the selection of `current` (a query string) and `extra` view keys. */
export function viewHref(path: string, current: URLSearchParams | string, extra?: Record<string, string>): string {
  const p = selectionOnly(current);
  for (const [k, v] of Object.entries(extra ?? {})) p.set(k, v);
  const qs = p.toString();
  return qs ? `${path}?${qs}` : path;
}

/** API query parameters for a selection: `captures`, `start`/`end` (ISO, µs), `pid`, `tid`, `comm`, `within`. */
export function selectionApiParams(s: Selection, captureIds: number[]): URLSearchParams {
  const p = new URLSearchParams({ captures: captureIds.join(',') });
  if (s.fromUs !== null) p.set('start', isoFromEpochUs(s.fromUs));
  if (s.toUs !== null) p.set('end', isoFromEpochUs(s.toUs));
  if (s.pid !== null) p.set('pid', String(s.pid));
  if (s.tid !== null) p.set('tid', String(s.tid));
  if (s.comm) p.set('comm', s.comm);
  if (s.within) p.set('within', formatWithin(s.within));
  return p;
}
