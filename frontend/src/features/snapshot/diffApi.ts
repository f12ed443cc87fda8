/** The snapshot endpoints: an incident's snapshots (one per take) and the config diff between two. */
import { arr, nullable, num, obj, oneOf, str } from '../../api/decode';
import { getJson } from '../../api/http';

export interface SnapshotRef {
  capture_id: number;
  filename: string;
  /** Which take of the file: 0 for the collector's, 0, 1… for a text snapshot run more than once. */
  take: number;
  /** start, end, before, after… when the file marks its takes. */
  label: string | null;
  host: string | null;
  taken_at_ns: number | null;
  source: 'collector' | 'text';
}

export type KeyStatus = 'changed' | 'added' | 'removed' | 'unchanged';

export interface KeyChange {
  section: string;
  key: string;
  status: KeyStatus;
  /** null where that side lacks the setting or could not read it (the note says why). */
  a: string | null;
  b: string | null;
  a_note: string | null;
  b_note: string | null;
  /** Why this setting matters for latency, for the settings behind known stalls. */
  hint: string | null;
}

export interface OnlyRead {
  section: string;
  count: number;
  keys: string[];
  whole_section: boolean;
}

export interface ConfigDiff {
  a: SnapshotRef;
  b: SnapshotRef;
  changed: KeyChange[];
  added: KeyChange[];
  removed: KeyChange[];
  unchanged: KeyChange[];
  only_in_a: OnlyRead[];
  only_in_b: OnlyRead[];
  not_compared_a: Record<string, number>;
  not_compared_b: Record<string, number>;
}

const nstr = nullable(str);
const nnum = nullable(num);
const status = oneOf(['changed', 'added', 'removed', 'unchanged'] as const);
const source = oneOf(['collector', 'text'] as const);

export function decodeSnapshotRef(v: unknown, path = 'snapshot'): SnapshotRef {
  const o = obj(v, path);
  return {
    capture_id: num(o.capture_id, `${path}.capture_id`),
    filename: str(o.filename, `${path}.filename`),
    take: num(o.take, `${path}.take`),
    label: nstr(o.label, `${path}.label`),
    host: nstr(o.host, `${path}.host`),
    taken_at_ns: nnum(o.taken_at_ns, `${path}.taken_at_ns`),
    source: source(o.source, `${path}.source`),
  };
}

function decodeKeyChange(v: unknown, path: string): KeyChange {
  const o = obj(v, path);
  return {
    section: str(o.section, `${path}.section`),
    key: str(o.key, `${path}.key`),
    status: status(o.status, `${path}.status`),
    a: nstr(o.a, `${path}.a`),
    b: nstr(o.b, `${path}.b`),
    a_note: nstr(o.a_note, `${path}.a_note`),
    b_note: nstr(o.b_note, `${path}.b_note`),
    hint: nstr(o.hint, `${path}.hint`),
  };
}

function decodeOnlyRead(v: unknown, path: string): OnlyRead {
  const o = obj(v, path);
  return {
    section: str(o.section, `${path}.section`),
    count: num(o.count, `${path}.count`),
    keys: arr(o.keys, `${path}.keys`, str),
    whole_section: o.whole_section === true,
  };
}

function counts(v: unknown, path: string): Record<string, number> {
  const o = obj(v, path);
  return Object.fromEntries(Object.entries(o).map(([k, n]) => [k, num(n, `${path}.${k}`)]));
}

export function decodeConfigDiff(v: unknown, path = 'diff'): ConfigDiff {
  const o = obj(v, path);
  const rows = (key: string) => arr(o[key], `${path}.${key}`, decodeKeyChange);
  return {
    a: decodeSnapshotRef(o.a, `${path}.a`),
    b: decodeSnapshotRef(o.b, `${path}.b`),
    changed: rows('changed'),
    added: rows('added'),
    removed: rows('removed'),
    unchanged: rows('unchanged'),
    only_in_a: arr(o.only_in_a, `${path}.only_in_a`, decodeOnlyRead),
    only_in_b: arr(o.only_in_b, `${path}.only_in_b`, decodeOnlyRead),
    not_compared_a: counts(o.not_compared_a, `${path}.not_compared_a`),
    not_compared_b: counts(o.not_compared_b, `${path}.not_compared_b`),
  };
}

export const listSnapshots = (incidentId: number, signal?: AbortSignal): Promise<SnapshotRef[]> =>
  getJson(`/api/incidents/${incidentId}/snapshots`, (v) => arr(v, 'snapshots', decodeSnapshotRef), signal);

export const getConfigDiff = (a: string, b: string, signal?: AbortSignal): Promise<ConfigDiff> =>
  getJson(`/api/snapshots/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`, (v) => decodeConfigDiff(v), signal);
