/** Display of trace events. Pure. */
import { isoOrCaptureClock } from '../../shared/captureClock';
import { formatDurationNs } from '../../shared/units';

/** A duration in human units; null means no closing event was seen, which is not the same as 0. */
export const eventDuration = (ns: number | null): string => (ns === null ? 'unclosed' : formatDurationNs(ns));

const ISO_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:Z|\+00:00)?$/;

/** "2026-11-22 00:31:08.014546" (UTC, microseconds) from the server's ISO string, without a lossy Date. */
export function eventTimeUtc(iso: string): string {
  const ownClock = isoOrCaptureClock(iso);
  if (ownClock !== null) return ownClock;
  const m = ISO_RE.exec(iso);
  if (!m) return iso;
  const [, date = '', time = '', frac = ''] = m;
  return `${date} ${time}.${frac.padEnd(6, '0').slice(0, 6)}`;
}

export const EVENT_KIND_LABELS: Record<string, string> = {
  syscall: 'syscalls',
  'off-cpu': 'off-CPU intervals',
  'on-cpu': 'on-CPU intervals',
  fault: 'page faults',
  function: 'function calls',
  tracepoint: 'tracepoints',
};
