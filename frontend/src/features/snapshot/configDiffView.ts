/** Pure helpers for the config diff view: side ids in the URL, picker labels, default pairs, grouping. */
import type { ConfigDiff, KeyChange, KeyStatus, SnapshotRef } from './diffApi';

/** `capture:take`, as the URL and the API name a side. */
export const sideId = (s: Pick<SnapshotRef, 'capture_id' | 'take'>): string => `${s.capture_id}:${s.take}`;

export function parseSide(text: string | null): { capture: number; take: number } | null {
  const m = /^(\d+)(?::(\d+))?$/.exec((text ?? '').trim());
  if (!m) return null;
  return { capture: Number(m[1]), take: Number(m[2] ?? 0) };
}

/** Capture id → the host it was uploaded under (the capture row's `host`), for the captures that name one. */
export type UploadHosts = ReadonlyMap<number, string>;

/** The capture rows' hosts by capture id: the names the findings and the other views use. */
export const uploadHosts = (captures: readonly { id: number; host: string | null }[]): UploadHosts =>
  new Map(captures.flatMap((c) => (c.host ? [[c.id, c.host] as const] : [])));

/**
 * `#12 snapshot.json · take 2 of 2 (end) · host bad (vm)`: the take only when the file has several;
 * the host the capture was uploaded under (what findings and links call the host), then the
 * snapshot's own hostname in brackets when it differs; the hostname alone when the upload named none.
 */
export function snapshotLabel(s: SnapshotRef, all: readonly SnapshotRef[], hosts: UploadHosts = new Map()): string {
  const takes = all.filter((o) => o.capture_id === s.capture_id).length;
  const parts = [`#${s.capture_id} ${s.filename}`];
  if (takes > 1) parts.push(`take ${s.take + 1} of ${takes}${s.label ? ` (${s.label})` : ''}`);
  const uploaded = hosts.get(s.capture_id);
  if (uploaded) parts.push(`host ${uploaded}${s.host && s.host !== uploaded ? ` (${s.host})` : ''}`);
  else if (s.host) parts.push(s.host);
  return parts.join(' · ');
}

/** Captures holding more than one take, as (first, last): the start-against-end comparisons on offer. */
export function startEndPairs(snapshots: readonly SnapshotRef[]): [SnapshotRef, SnapshotRef][] {
  const byCapture = new Map<number, SnapshotRef[]>();
  for (const s of snapshots) byCapture.set(s.capture_id, [...(byCapture.get(s.capture_id) ?? []), s]);
  const pairs: [SnapshotRef, SnapshotRef][] = [];
  for (const takes of byCapture.values()) {
    const sorted = [...takes].sort((x, y) => x.take - y.take);
    const first = sorted[0];
    const last = sorted[sorted.length - 1];
    if (first && last && sorted.length > 1) pairs.push([first, last]);
  }
  return pairs;
}

/** What to compare when the URL says nothing: two hosts' first takes, else one file's start and end. */
export function defaultPair(snapshots: readonly SnapshotRef[]): [string, string] | null {
  const firsts = snapshots.filter((s) => s.take === 0);
  const [x, y] = firsts;
  if (x && y) return [sideId(x), sideId(y)];
  const pair = startEndPairs(snapshots)[0];
  return pair ? [sideId(pair[0]), sideId(pair[1])] : null;
}

/** A side as the pickers' options write it: `12` (a link naming the capture alone) is `12:0`. */
export function canonicalSide(text: string | null): string | null {
  const side = parseSide(text);
  return side ? sideId({ capture_id: side.capture, take: side.take }) : null;
}

/** The sides to compare: the URL's where valid, else B the first snapshot other than A, else `defaultPair`. */
export function pickPair(snapshots: readonly SnapshotRef[], urlA: string | null, urlB: string | null): [string | null, string | null] {
  const a = canonicalSide(urlA);
  const b = canonicalSide(urlB);
  if (a && b) return [a, b];
  const fallback = defaultPair(snapshots);
  if (a) return [a, snapshots.map(sideId).find((s) => s !== a) ?? null];
  if (b) return [snapshots.map(sideId).find((s) => s !== b) ?? null, b];
  return fallback ?? [null, null];
}

export interface RowGroup {
  status: KeyStatus;
  title: string;
  rows: KeyChange[];
}

const TITLES: Record<KeyStatus, string> = {
  changed: 'Changed',
  added: 'Only in B (added)',
  removed: 'Only in A (removed)',
  unchanged: 'Unchanged',
};

/** Changed first, then added, then removed, then unchanged; each in the server's order (stall-prone sections first). */
export function groups(diff: ConfigDiff, filter = ''): RowGroup[] {
  const needle = filter.trim().toLowerCase();
  const keep = (r: KeyChange) =>
    !needle || [r.section, r.key, r.a ?? '', r.b ?? ''].some((t) => t.toLowerCase().includes(needle));
  return (['changed', 'added', 'removed', 'unchanged'] as const).map((status) => ({
    status,
    title: TITLES[status],
    rows: diff[status].filter(keep),
  }));
}

/** A value as shown in a cell: the text, or why there is none. */
export function cellText(value: string | null, note: string | null, status: KeyStatus, side: 'a' | 'b'): string {
  if (value !== null) return value;
  if (note) return `unreadable: ${note}`;
  if ((status === 'added' && side === 'a') || (status === 'removed' && side === 'b')) return '—';
  return 'unreadable';
}

/** `vm (39), processes (20)`: what one side read and the other did not. */
export function onlyReadSummary(only: ConfigDiff['only_in_a']): string {
  return only.map((o) => `${o.section} (${o.whole_section ? 'whole section' : o.count})`).join(', ');
}
