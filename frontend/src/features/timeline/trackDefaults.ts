/**
 * Which tracks a timeline shows before anyone picks: per host, CPU density (its busiest event),
 * off-CPU time by state, blocked stacks sampled from /proc (state D, or every dump when the dumps
 * name no state), syscall and fault latency, free memory, and every application metric — what a
 * first look at a latency incident needs, without hundreds of per-CPU or per-thread series.
 */
import type { CpuTrackInfo, HostTracks, MetricTrackInfo, TrackInfo, TrackListing } from './api';

const LATENCY_KINDS = new Set(['syscall', 'fault']);

/** Free-memory series by the names the /proc sampler, sar and vmstat give them, most telling first. */
export const FREE_MEMORY_NAMES = ['mem.MemFree', 'mem.MemAvailable', 'mem.free', 'mem.available', 'vm.free'] as const;

const MAX_APPLICATION_METRICS = 24;

function freeMemory(metrics: MetricTrackInfo[]): MetricTrackInfo[] {
  const byName = new Map(metrics.filter((m) => Object.keys(m.labels).length === 0).map((m) => [m.name, m]));
  const found = FREE_MEMORY_NAMES.map((n) => byName.get(n)).filter((m): m is MetricTrackInfo => m !== undefined);
  // MemFree shows the page-cache sawtooth, MemAvailable what is really left: both when both exist.
  return found.slice(0, 2);
}

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
  const metrics = host.tracks.filter((t): t is MetricTrackInfo => t.type === 'metric');
  ids.push(...freeMemory(metrics.filter((m) => m.system)).map((m) => m.id));
  ids.push(...metrics.filter((m) => !m.system).slice(0, MAX_APPLICATION_METRICS).map((m) => m.id));
  return ids;
}

export function defaultTrackIds(listing: TrackListing): string[] {
  return listing.hosts.flatMap(hostDefaults);
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
