/**
 * Which tracks a timeline shows before anyone picks: per host, CPU density (its busiest event),
 * off-CPU time by state, blocked stacks sampled from /proc (state D, or every dump when the dumps
 * name no state), syscall and fault latency; then, over the whole incident, a handful of metric
 * tracks — free memory and the application series that change most. Imported metrics often hold
 * dozens of series per host; drawn all at once they push the CPU and off-CPU tracks off the screen,
 * so the rest stay in the track list, one click away.
 */
import type { CpuTrackInfo, HostTracks, MetricTrackInfo, TrackInfo, TrackListing } from './api';

const LATENCY_KINDS = new Set(['syscall', 'fault']);

/** Free-memory series by the names the /proc sampler, sar and vmstat give them, most telling first. */
export const FREE_MEMORY_NAMES = ['mem.MemFree', 'mem.MemAvailable', 'mem.free', 'mem.available', 'vm.free'] as const;

/** Metric tracks shown by default, over every host of the incident. */
export const MAX_DEFAULT_METRICS = 8;

/** Tracks one timeline request may ask for (the server's limit). */
export const MAX_REQUEST_TRACKS = 100;

/**
 * Cumulative counters by their Prometheus names (and the /proc sampler's `.total`), as the server's
 * metric kinds read them: the timeline draws values as they are, and a counter drawn raw is a ramp
 * whatever happened, so counters come after series that move on their own.
 */
const COUNTER_NAME = /(?:_total|_count|_sum|\.total)$/;

/**
 * How much a series moves over the incident, from its whole-range min and max: the spread relative
 * to its size, 0 for a series that never changes (or has fewer than two points) and 1 for one that
 * goes from zero to its peak. Relative, so bytes and milliseconds compare.
 */
export function metricChange(m: MetricTrackInfo): number {
  if (m.points < 2 || m.min === null || m.max === null) return 0;
  const size = Math.max(Math.abs(m.min), Math.abs(m.max));
  return size > 0 ? (m.max - m.min) / size : 0;
}

function freeMemory(metrics: MetricTrackInfo[]): MetricTrackInfo[] {
  const byName = new Map(metrics.filter((m) => Object.keys(m.labels).length === 0).map((m) => [m.name, m]));
  const found = FREE_MEMORY_NAMES.map((n) => byName.get(n)).filter((m): m is MetricTrackInfo => m !== undefined);
  // MemFree shows the page-cache sawtooth, MemAvailable what is really left: both when both exist.
  return found.slice(0, 2);
}

/**
 * A host's metric tracks worth showing, best first: free memory, then application series, those
 * that change most first and counters last; series that never change are left out. Equal ones keep
 * the listing's order. Other system series (per CPU, per disk…) are never candidates: there are
 * hundreds of them, and they are what the track list is for.
 */
export function metricCandidates(host: HostTracks): MetricTrackInfo[] {
  const metrics = host.tracks.filter((t): t is MetricTrackInfo => t.type === 'metric');
  const memory = freeMemory(metrics.filter((m) => m.system)).filter((m) => metricChange(m) > 0);
  const application = metrics
    .map((m, order) => ({ m, order, change: metricChange(m), counter: COUNTER_NAME.test(m.name) }))
    .filter((c) => !c.m.system && c.change > 0)
    .sort((a, b) => Number(a.counter) - Number(b.counter) || b.change - a.change || a.order - b.order)
    .map((c) => c.m);
  return [...memory, ...application];
}

/** A host's tracks shown by default besides metrics. */
export function hostDefaults(host: HostTracks): string[] {
  const ids: string[] = [];
  const sampled = host.tracks.filter((t): t is CpuTrackInfo => t.type === 'cpu');
  const cpu = sampled.filter((t) => t.origin === 'cpu');
  const busiest = cpu.reduce<CpuTrackInfo | null>((best, t) => (best === null || t.samples > best.samples ? t : best), null);
  if (busiest) ids.push(busiest.id);
  ids.push(...sampled.filter((t) => t.origin === 'proc-stack' && (t.state === 'D' || t.state === null)).map((t) => t.id));
  for (const t of host.tracks) {
    if (t.type === 'offcpu') ids.push(t.id);
    else if (t.type === 'events' && t.name === null && LATENCY_KINDS.has(t.kind)) ids.push(t.id);
  }
  return ids;
}

/** Every host's candidates, taken in turns (each host's best, then each host's second…), up to `limit`. */
function takeInTurns(listing: TrackListing, limit: number): MetricTrackInfo[] {
  const queues = listing.hosts.map(metricCandidates);
  const taken: MetricTrackInfo[] = [];
  for (let rank = 0; taken.length < limit && queues.some((q) => q.length > rank); rank += 1) {
    for (const q of queues) {
      const m = q[rank];
      if (m && taken.length < limit) taken.push(m);
    }
  }
  return taken;
}

/** In the listing's order, host by host, as the picker and the chart show them. */
function inListingOrder(listing: TrackListing, ids: Iterable<string>): string[] {
  const wanted = new Set(ids);
  return listing.hosts.flatMap((h) => h.tracks.filter((t) => wanted.has(t.id)).map((t) => t.id));
}

export function defaultTrackIds(listing: TrackListing): string[] {
  const metrics = takeInTurns(listing, MAX_DEFAULT_METRICS).map((m) => m.id);
  return inListingOrder(listing, [...listing.hosts.flatMap(hostDefaults), ...metrics]);
}

/**
 * The metric tracks the defaults leave out that are worth a look (free memory and application
 * series, changing or not), best first, and the ids that show them too — as many as one request
 * may draw.
 */
export function moreMetrics(listing: TrackListing): { hidden: MetricTrackInfo[]; withThem: string[] } {
  const shown = new Set(defaultTrackIds(listing));
  const hidden: MetricTrackInfo[] = [];
  for (const host of listing.hosts) {
    const ranked = metricCandidates(host);
    const rest = host.tracks.filter(
      (t): t is MetricTrackInfo => t.type === 'metric' && !ranked.includes(t) && (!t.system || freeMemory([t]).length > 0),
    );
    hidden.push(...[...ranked, ...rest].filter((m) => !shown.has(m.id)));
  }
  const room = Math.max(0, MAX_REQUEST_TRACKS - shown.size);
  return { hidden, withThem: inListingOrder(listing, [...shown, ...hidden.slice(0, room).map((m) => m.id)]) };
}

/** Ids in the order the listing shows them (host by host), so a URL's order does not reshuffle rows. */
export function orderedTracks(listing: TrackListing, ids: readonly string[]): TrackInfo[] {
  const wanted = new Set(ids);
  return listing.hosts.flatMap((h) => h.tracks.filter((t) => wanted.has(t.id)));
}

/** Ids the URL asks for that the incident does not have (a capture deleted, a host filtered out). */
export function unknownTracks(listing: TrackListing, ids: readonly string[]): string[] {
  const known = new Set(listing.hosts.flatMap((h) => h.tracks.map((t) => t.id)));
  return ids.filter((id) => !known.has(id));
}
