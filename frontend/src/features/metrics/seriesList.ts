/** Naming, grouping and search of metric series. Pure. */
import type { MetricSeries } from '../../api/types';

/** "cpu=0, mode=user"; "" without labels. */
export const labelText = (labels: Record<string, string>): string =>
  Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

/** "#12 healthy.json": the id tells apart two uploads of the same file name. */
export const captureText = (s: MetricSeries): string => (s.capture_filename ? `#${s.capture_id} ${s.capture_filename}` : `#${s.capture_id}`);

export const hostText = (s: MetricSeries): string => s.host ?? 'no host';

/** "requests_total{job=api}" */
export const metricText = (s: MetricSeries): string => {
  const l = labelText(s.labels);
  return l ? `${s.name}{${l}}` : s.name;
};

/** "web-1 · #12 healthy.json · requests_total{job=api}": unique across hosts and captures. */
export const seriesTitle = (s: MetricSeries): string => `${hostText(s)} · ${captureText(s)} · ${metricText(s)}`;

/** A series inside its name's group: where it comes from, then its labels. */
export const seriesItemText = (s: MetricSeries): string => {
  const l = labelText(s.labels);
  return l ? `${hostText(s)} · ${captureText(s)} · ${l}` : `${hostText(s)} · ${captureText(s)}`;
};

export interface SeriesGroup {
  name: string;
  unit: string;
  series: MetricSeries[];
  /** Distinct hosts in the group: more than one means it can be compared across hosts. */
  hosts: number;
}

const natural = (a: string, b: string): number => a.localeCompare(b, undefined, { numeric: true });

/** Series grouped by name (names sorted), filtered by a case-insensitive search over name, labels,
 * host and capture; in a group by labels, then host, then capture. */
export function groupSeries(all: readonly MetricSeries[], search: string): SeriesGroup[] {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, SeriesGroup>();
  for (const s of all) {
    if (needle && !`${s.name} ${labelText(s.labels)} ${hostText(s)} ${captureText(s)}`.toLowerCase().includes(needle)) continue;
    const g = groups.get(s.name);
    if (g) g.series.push(s);
    else groups.set(s.name, { name: s.name, unit: s.unit ?? '', series: [s], hosts: 0 });
  }
  for (const g of groups.values()) {
    g.series.sort(
      (a, b) => natural(labelText(a.labels), labelText(b.labels)) || natural(hostText(a), hostText(b)) || a.capture_id - b.capture_id,
    );
    g.hosts = new Set(g.series.map(hostText)).size;
  }
  return [...groups.values()].sort((a, b) => natural(a.name, b.name));
}

/** The same metric (name and labels) in every capture and on every host, `s` first: to overlay. */
export function sameMetric(all: readonly MetricSeries[], s: MetricSeries): MetricSeries[] {
  const key = metricText(s);
  return [s, ...all.filter((o) => o.id !== s.id && metricText(o) === key)];
}
