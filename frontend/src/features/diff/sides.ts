/** What each side selects, in words and in capture ids, and the one-click baselines. Pure. */
import type { Capture } from '../../api/types';
import { formatWithin, isoFromEpochUs } from '../../shared/selection';
import type { DiffSideQuery } from './api';
import { EMPTY_SIDE, type SideSelection } from './urlState';

/** Parsed captures: the only ones with stored stacks to compare. */
export const isComparable = (c: Capture): boolean => c.status === 'ready' || c.status === 'partial';

/**
 * The capture ids a side reads: its own list, else every parsed capture of the incident; either
 * narrowed to its hosts when it names some (the shared selection's rule: empty = all).
 */
export function sideCaptureIds(side: SideSelection, captures: readonly Capture[]): number[] {
  const known = new Map(captures.map((c) => [c.id, c]));
  const listed = side.captures.length > 0 ? side.captures.map((id) => known.get(id) ?? id) : captures.filter(isComparable);
  const ids = listed
    .filter((c) => typeof c === 'number' || side.hosts.length === 0 || side.hosts.includes(c.host ?? ''))
    .map((c) => (typeof c === 'number' ? c : c.id));
  return [...new Set(ids)].sort((x, y) => x - y);
}

export function sideQuery(side: SideSelection, captures: readonly Capture[]): DiffSideQuery {
  return {
    captures: sideCaptureIds(side, captures),
    fromUs: side.fromUs,
    toUs: side.toUs,
    pid: side.pid,
    tid: side.tid,
    comm: side.comm,
    within: side.within,
  };
}

export interface HostGroup {
  host: string | null;
  captures: Capture[];
}

/** Captures by host, hosts by name (no host last), captures by start time. */
export function byHost(captures: readonly Capture[]): HostGroup[] {
  const groups = new Map<string | null, Capture[]>();
  for (const c of captures) {
    const list = groups.get(c.host) ?? [];
    list.push(c);
    groups.set(c.host, list);
  }
  return [...groups.entries()]
    .sort(([x], [y]) => (x === null ? 1 : y === null ? -1 : x.localeCompare(y)))
    .map(([host, list]) => ({
      host,
      captures: list.sort((p, q) => (p.time_start ?? '').localeCompare(q.time_start ?? '') || p.id - q.id),
    }));
}

/** "captures #3, #4 · 08:00:01.000000Z → 08:00:02.000000Z · comm postgres · within 0-20000 µs" */
export function describeSide(side: SideSelection, ids: readonly number[]): string {
  const parts: string[] = [];
  if (ids.length === 0) parts.push('no captures');
  else parts.push(`${ids.length === 1 ? 'capture' : 'captures'} ${ids.map((id) => `#${id}`).join(', ')}`);
  if (side.hosts.length > 0) parts.push(`${side.hosts.length === 1 ? 'host' : 'hosts'} ${side.hosts.join(', ')}`);
  if (side.fromUs !== null || side.toUs !== null) {
    const from = side.fromUs === null ? 'start' : isoFromEpochUs(side.fromUs);
    const to = side.toUs === null ? 'end' : isoFromEpochUs(side.toUs);
    parts.push(`${from} → ${to}`);
  } else parts.push('whole range');
  if (side.comm) parts.push(`comm ${side.comm}`);
  if (side.pid !== null) parts.push(`pid ${side.pid}`);
  if (side.tid !== null) parts.push(`tid ${side.tid}`);
  if (side.within) parts.push(`${side.within.outside ? 'outside' : 'within'} ${formatWithin(side.within).replace('!', '')} µs of each second`);
  return parts.join(' · ');
}

export interface Preset {
  id: string;
  label: string;
  /** What A becomes. */
  a: SideSelection;
}

/** True when a side narrows anything besides captures and hosts: a time range, a process, a band. */
const narrowed = (s: SideSelection): boolean =>
  s.fromUs !== null || s.toUs !== null || s.pid !== null || s.tid !== null || s.comm !== null || s.within !== null;

/**
 * Baselines one click away, from what B is: the same captures over their whole range (when B is a
 * narrower slice of them), the rest of the band (when B is a band within each second), and the
 * other hosts' captures (when the incident has more than B's).
 */
export function baselinePresets(b: SideSelection, captures: readonly Capture[]): Preset[] {
  const presets: Preset[] = [];
  const bIds = sideCaptureIds(b, captures);
  if (narrowed(b)) presets.push({ id: 'whole-range', label: 'A = the same captures, whole range', a: { ...EMPTY_SIDE, captures: bIds } });
  if (b.within) {
    presets.push({
      id: 'rest-of-second',
      label: `A = the same time, ${b.within.outside ? 'inside' : 'outside'} that part of each second`,
      a: { ...b, within: { ...b.within, outside: !b.within.outside } },
    });
  }
  const bHosts = new Set(captures.filter((c) => bIds.includes(c.id)).map((c) => c.host ?? ''));
  const others = captures.filter((c) => isComparable(c) && !bIds.includes(c.id));
  const otherHosts = others.filter((c) => !bHosts.has(c.host ?? ''));
  if (otherHosts.length > 0) {
    const hosts = [...new Set(otherHosts.map((c) => c.host ?? 'no host'))];
    presets.push({
      id: 'other-hosts',
      label: `A = the other ${hosts.length === 1 ? 'host' : 'hosts'} (${hosts.join(', ')})`,
      a: { ...EMPTY_SIDE, captures: otherHosts.map((c) => c.id).sort((x, y) => x - y) },
    });
  } else if (others.length > 0) {
    presets.push({
      id: 'other-captures',
      label: 'A = the other captures',
      a: { ...EMPTY_SIDE, captures: others.map((c) => c.id).sort((x, y) => x - y) },
    });
  }
  return presets;
}
