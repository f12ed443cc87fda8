/** From the URL view state to API queries. Pure. */
import type { FlameQuery } from '../../api/types';
import { formatWithin, isoFromEpochUs } from '../../shared/selection';
import { offsetToIso } from '../../shared/time';
import { hasStates, type FlameViewState } from './urlState';

/**
 * The API filter for a view. Offsets from old links need the captures' start time; without it
 * (facets not loaded yet, or captures without timestamps) they cannot be expressed and are left out.
 */
export function toFlameQuery(s: FlameViewState, timeStart: string | null): FlameQuery {
  const q: FlameQuery = { captures: [...s.captures].sort((a, b) => a - b) };
  if (hasStates(s.source)) {
    q.source = s.source;
    if (s.state) q.state = s.state;
  } else if (s.event) q.event = s.event;
  if (s.pid !== null) q.pid = s.pid;
  if (s.tid !== null) q.tid = s.tid;
  if (s.comm) q.comm = s.comm;
  if (s.fromUs !== null) q.start = isoFromEpochUs(s.fromUs);
  else if (timeStart && s.legacyStart !== null) q.start = offsetToIso(timeStart, s.legacyStart);
  if (s.toUs !== null) q.end = isoFromEpochUs(s.toUs);
  else if (timeStart && s.legacyEnd !== null) q.end = offsetToIso(timeStart, s.legacyEnd);
  if (s.within) q.within = formatWithin(s.within);
  return q;
}

/** True if the view holds offsets from an old link and the capture start is needed to send them. */
export const needsTimeStart = (s: FlameViewState): boolean => s.legacyStart !== null || s.legacyEnd !== null;

/** A file name for the folded download: captures, event and filters, safe on every file system. */
export function foldedFileName(q: FlameQuery, event: string): string {
  const parts = [`captures-${q.captures.join('-')}`, q.source ? `${q.source}${q.state ? `-${q.state}` : ''}` : event || 'default'];
  if (q.comm) parts.push(q.comm);
  if (q.pid !== undefined) parts.push(`pid${q.pid}`);
  if (q.tid !== undefined) parts.push(`tid${q.tid}`);
  return `${parts.join('_').replace(/[^A-Za-z0-9._-]+/g, '-')}.folded.txt`;
}
