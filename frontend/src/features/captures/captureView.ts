/** Pure display logic for a capture row: record summary, time span, alignment and the view to open. */
import type { Capture, ClockMode } from '../../api/types';
import { formatCount } from '../../shared/units';
import { eventsHref } from '../events/eventsView';
import { flameHref } from '../flame/urlState';
import { metricsHref } from '../metrics/metricsView';

/** Clock modes a person's start time applies to: nothing better put the capture on the wall clock. */
const STARTABLE_MODES: readonly (ClockMode | null)[] = ['unaligned', 'user-start'];

/** A start time can be given: the capture's clock is its own, or a person's start placed it. */
export const takesStart = (c: Capture): boolean => STARTABLE_MODES.includes(c.clock.mode);

/** On the wall clock (the server says which modes give wall-clock times). */
export const isAligned = (c: Capture): boolean => c.clock.wall_clock;

/** Where a parse warning points: "line 1,204"; null for a warning about the whole capture (line 0),
 *  such as a bound reached or events lost, which has no one line to name. */
export const warningPlace = (line: number): string | null => (line > 0 ? `line ${formatCount(line)}` : null);

/** The capture has a time range that a shift can move. */
export const hasTimes = (c: Capture): boolean => c.time_start !== null && c.time_end !== null && c.clock.mode !== 'none';

const count = (c: Capture, key: string): number => c.record_counts[key] ?? 0;

/** Events of /proc stack samples: `proc-stack`, or `proc-stack:<state>` when the dumps said the state. */
const PROC_STACK_EVENT = 'proc-stack';

/** Samples of every /proc stack event, or of the one taken in `state`. */
function procStackSamples(c: Capture, state?: string): number {
  const wanted = (name: string): boolean =>
    state === undefined ? name === PROC_STACK_EVENT || name.startsWith(`${PROC_STACK_EVENT}:`) : name === `${PROC_STACK_EVENT}:${state}`;
  return c.events.filter((e) => wanted(e.name)).reduce((sum, e) => sum + e.samples, 0);
}

/** Periodic /proc/PID/task/TID/stack dumps: kernel stacks sampled per thread, not CPU samples. */
export const isProcStacks = (c: Capture): boolean => c.format === 'proc-stacks' || procStackSamples(c) > 0;

/** CPU samples, which the combined flame graph of several captures is for. */
export const hasSamples = (c: Capture): boolean => c.sample_count > 0 || count(c, 'samples') > 0;

const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Words for `events.<kind>` counts. */
const EVENT_WORDS: Record<string, [string, string]> = {
  syscall: ['syscall', 'syscalls'],
  'off-cpu': ['off-CPU interval', 'off-CPU intervals'],
  fault: ['fault', 'faults'],
  function: ['function call', 'function calls'],
  tracepoint: ['tracepoint event', 'tracepoint events'],
};

/** The event kinds a capture holds (from `events.<kind>` counts), biggest first. */
export function eventKinds(c: Capture): string[] {
  return Object.entries(c.record_counts)
    .filter(([k, n]) => k.startsWith('events.') && n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k]) => k.slice('events.'.length));
}

/** "39,856 samples", "11,005 syscalls", "53,764 off-CPU intervals (2,478 unclosed)", "1,204 points in 38 series". */
export function recordSummary(c: Capture): string {
  const parts: string[] = [];
  const samples = count(c, 'samples') || c.sample_count;
  if (samples > 0 && isProcStacks(c)) {
    const blocked = procStackSamples(c, 'D');
    parts.push(`${plural(samples, 'kernel stack sample', 'kernel stack samples')}${blocked > 0 ? ` (${formatCount(blocked)} in state D)` : ''}`);
  } else if (samples > 0) parts.push(plural(samples, 'sample', 'samples'));

  const unclosed = count(c, 'unclosed_events');
  // on-CPU intervals are the complement of off-CPU ones; they would only add noise to the summary.
  const kinds = eventKinds(c).filter((k) => k !== 'on-cpu' || count(c, 'events.off-cpu') === 0);
  kinds.forEach((k, i) => {
    const [one, many] = EVENT_WORDS[k] ?? [`${k} event`, `${k} events`];
    const n = count(c, `events.${k}`);
    parts.push(`${plural(n, one, many)}${i === 0 && unclosed > 0 ? ` (${formatCount(unclosed)} unclosed)` : ''}`);
  });
  if (kinds.length === 0 && count(c, 'events') > 0) {
    parts.push(`${plural(count(c, 'events'), 'event', 'events')}${unclosed > 0 ? ` (${formatCount(unclosed)} unclosed)` : ''}`);
  }

  const points = count(c, 'metric_points');
  const series = count(c, 'metric_series');
  if (points > 0 || series > 0) parts.push(`${plural(points, 'point', 'points')} in ${plural(series, 'series', 'series')}`);

  const docs = count(c, 'documents');
  if (docs > 0) parts.push(isSnapshot(c) ? plural(docs, 'snapshot', 'snapshots') : plural(docs, 'document', 'documents'));
  return parts.join(' · ');
}

/** Every raw count, for a tooltip. */
export const recordCountsTitle = (c: Capture): string =>
  Object.entries(c.record_counts)
    .map(([k, n]) => `${k}: ${formatCount(n)}`)
    .join('\n');

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** "2026-11-22 00:31:08.000" in UTC. */
export function formatUtc(iso: string, withDate = true): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
  return withDate ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${time}` : time;
}

function offsetText(seconds: number): string {
  const abs = Math.abs(seconds);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 3;
  return `${seconds < 0 ? '-' : '+'}${abs.toFixed(digits)} s`;
}

/**
 * Aligned captures (anchor, host-anchor, perf-tod, realtime, user-offset, user-start) in UTC: "2026-11-22 00:31:08.000 … 00:31:10.000 UTC".
 * Others only know durations: "+0.000 s … +20.0 s (unaligned)".
 */
export function timeSpanText(c: Capture): string {
  if (!c.time_start || !c.time_end) return '–';
  if (isAligned(c)) {
    const sameDay = c.time_start.slice(0, 10) === c.time_end.slice(0, 10);
    return `${formatUtc(c.time_start)} … ${formatUtc(c.time_end, !sameDay)} UTC`;
  }
  const span = (Date.parse(c.time_end) - Date.parse(c.time_start)) / 1000;
  if (!Number.isFinite(span)) return '–';
  return `${offsetText(0)} … ${offsetText(span)} (${c.clock.mode === 'none' ? 'no clock' : 'unaligned'})`;
}

const SNAPSHOT_FORMATS: readonly string[] = ['stallscope-snapshot', 'snapshot-text'];
const METRIC_FORMATS: readonly string[] = ['sysstat', 'prometheus-range', 'metrics-jsonl', 'metrics-csv', 'stallscope-proc'];
const SAMPLE_FORMATS: readonly string[] = ['perf-script', 'collapsed', 'dtrace'];

const isSnapshot = (c: Capture): boolean => SNAPSHOT_FORMATS.includes(c.format ?? '') || c.kind === 'snapshot';

export interface CaptureLink {
  label: string;
  href: string;
}

/** The plain views of a capture: the primary one first. */
export function captureLinks(c: Capture): CaptureLink[] {
  const links: CaptureLink[] = [];
  const one = { incident: c.incident_id, captures: [c.id] };
  const offcpu = count(c, 'events.off-cpu') > 0 || c.format === 'perf-sched';
  if (isSnapshot(c)) links.push({ label: 'Open snapshot', href: `/captures/${c.id}/snapshot` });
  if (count(c, 'metric_series') > 0 || count(c, 'metric_points') > 0 || (METRIC_FORMATS.includes(c.format ?? '') && links.length === 0)) {
    links.push({ label: 'Open metrics', href: metricsHref(one) });
  }
  if (offcpu) links.push({ label: 'Open off-CPU flame graph', href: flameHref({ ...one, source: 'off-cpu' }) });
  if (isProcStacks(c)) {
    // Opened on the blocked (D) stacks when the dumps say which those are: what the dumps are taken for.
    const state = procStackSamples(c, 'D') > 0 ? 'D' : null;
    links.push({ label: 'Open kernel-stack flame graph', href: flameHref({ ...one, source: 'proc-stack', state }) });
  } else if (count(c, 'samples') > 0 || c.sample_count > 0 || (SAMPLE_FORMATS.includes(c.format ?? '') && links.length === 0)) {
    links.push({ label: 'Open flame graph', href: flameHref(one) });
  }
  const kinds = eventKinds(c).filter((k) => k !== 'on-cpu');
  if (kinds.length > 0 || (count(c, 'events') > 0 && !offcpu)) {
    const kind = offcpu ? 'off-cpu' : kinds.length === 1 ? (kinds[0] ?? null) : null;
    links.push({ label: offcpu ? 'Off-CPU intervals' : 'Open events', href: eventsHref({ ...one, kind }) });
  }
  return links;
}

export interface HostGroup {
  host: string | null;
  captures: Capture[];
}

/** Captures by host, hosts in name order, "no host" last; order within a host is kept. */
export function groupByHost(captures: readonly Capture[]): HostGroup[] {
  const byHost = new Map<string | null, Capture[]>();
  for (const c of captures) {
    const key = c.host?.trim() ? c.host : null;
    const list = byHost.get(key);
    if (list) list.push(c);
    else byHost.set(key, [c]);
  }
  return [...byHost.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([host, list]) => ({ host, captures: list }));
}
