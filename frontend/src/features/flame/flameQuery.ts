/** From the URL view state to API queries. Pure. */
import type { FlameQuery } from '../../api/types';
import { offsetToIso } from '../../shared/time';
import type { FlameViewState } from './urlState';

/**
 * The API filter for a view. Time offsets need the captures' start time; without it (facets not
 * loaded yet, or captures without timestamps) the range cannot be expressed and is left out.
 */
export function toFlameQuery(s: FlameViewState, timeStart: string | null): FlameQuery {
  const q: FlameQuery = { captures: [...s.captures].sort((a, b) => a - b) };
  if (s.source === 'off-cpu') {
    q.source = 'off-cpu';
    if (s.state) q.state = s.state;
  } else if (s.event) q.event = s.event;
  if (s.pid !== null) q.pid = s.pid;
  if (s.tid !== null) q.tid = s.tid;
  if (s.comm) q.comm = s.comm;
  if (timeStart) {
    if (s.start !== null) q.start = offsetToIso(timeStart, s.start);
    if (s.end !== null) q.end = offsetToIso(timeStart, s.end);
  }
  return q;
}

/** True if the view asks for a time range and the capture start is needed to send it. */
export const needsTimeStart = (s: FlameViewState): boolean => s.start !== null || s.end !== null;

/** A file name for the folded download: captures, event and filters, safe on every file system. */
export function foldedFileName(q: FlameQuery, event: string): string {
  const parts = [`captures-${q.captures.join('-')}`, q.source === 'off-cpu' ? `off-cpu${q.state ? `-${q.state}` : ''}` : event || 'default'];
  if (q.comm) parts.push(q.comm);
  if (q.pid !== undefined) parts.push(`pid${q.pid}`);
  if (q.tid !== undefined) parts.push(`tid${q.tid}`);
  return `${parts.join('_').replace(/[^A-Za-z0-9._-]+/g, '-')}.folded.txt`;
}
