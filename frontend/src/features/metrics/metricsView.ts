/**
 * The metric chart's view state in the URL
 * (`/metrics?v=1&incident=2&captures=3&series=8,18&q=cpu&x=start&counters=raw`). Pure.
 * `x` and `counters` came later and default to what links without them meant: wall clock, rates.
 *
 * Links made without the series' ids (a finding's evidence) name the series instead:
 * `show=<name>&labels=k=v,k2=v2&hosts=web-1,web-2`. The page resolves them to ids once the series
 * list is loaded (`seriesToShow`) and writes `series` in their place, so the URL then reads as any other.
 */
import type { MetricSeries } from '../../api/types';
import { parseIds } from '../events/eventsView';
import type { XMode } from './chartData';
import { labelText } from './seriesList';

export const METRICS_VIEW_VERSION = 1;

export type CounterMode = 'rate' | 'raw';

export interface MetricsViewState {
  incident: number | null;
  /** Empty: every capture of the incident. */
  captures: number[];
  /** Selected series ids, in the order they were picked. */
  series: number[];
  search: string;
  /** Wall clock, or offsets from each capture's first point (to compare runs recorded apart). */
  x: XMode;
  /** Counters as their rate per second, or their raw cumulative values. */
  counters: CounterMode;
  /** A series name to draw, from a link that does not know its ids ('' when none). */
  show: string;
  /** Labels the shown series must carry, as [key, value] pairs in the link's order. */
  labels: [string, string][];
  /** Hosts the shown series must be on (empty: any host). */
  hosts: string[];
}

export const EMPTY_METRICS_VIEW: MetricsViewState = {
  incident: null,
  captures: [],
  series: [],
  search: '',
  x: 'time',
  counters: 'rate',
  show: '',
  labels: [],
  hosts: [],
};

export function encodeMetricsView(s: MetricsViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(METRICS_VIEW_VERSION));
  if (s.incident !== null) p.set('incident', String(s.incident));
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.series.length > 0) p.set('series', s.series.join(','));
  if (s.search) p.set('q', s.search);
  if (s.x !== 'time') p.set('x', s.x);
  if (s.counters !== 'rate') p.set('counters', s.counters);
  if (s.show) p.set('show', s.show);
  if (s.labels.length > 0) p.set('labels', s.labels.map(([k, v]) => `${k}=${v}`).join(','));
  if (s.hosts.length > 0) p.set('hosts', s.hosts.join(','));
  return p;
}

/** `cpu=0,mode=user` → [['cpu', '0'], ['mode', 'user']]; a part without `=` is a key with an empty value. */
export function parseLabels(raw: string | null): [string, string][] {
  const out: [string, string][] = [];
  for (const part of (raw ?? '').split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    out.push(at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1)]);
  }
  return out;
}

const parseNames = (raw: string | null): string[] => [
  ...new Set(
    (raw ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
  ),
];

export function decodeMetricsView(input: URLSearchParams | string): MetricsViewState {
  const p = new URLSearchParams(input);
  const incident = Number(p.get('incident') ?? '');
  return {
    incident: p.get('incident') && Number.isInteger(incident) && incident > 0 ? incident : null,
    captures: parseIds(p.get('captures')),
    series: parseIds(p.get('series')),
    search: p.get('q') ?? '',
    x: p.get('x') === 'start' ? 'start' : 'time',
    counters: p.get('counters') === 'raw' ? 'raw' : 'rate',
    show: p.get('show') ?? '',
    labels: parseLabels(p.get('labels')),
    hosts: parseNames(p.get('hosts')),
  };
}

/** Whether the view names series to draw that the page has yet to turn into ids. */
export const wantsShown = (v: MetricsViewState): boolean => v.show !== '' && v.series.length === 0;

/**
 * The ids of the series a `show` link names, in the list's order: the name equal to `show`, every
 * label pair of the link among the series' labels (it may carry more), and on one of `hosts` when
 * the link names hosts.
 */
export function seriesToShow(all: readonly MetricSeries[], v: Pick<MetricsViewState, 'show' | 'labels' | 'hosts'>): number[] {
  if (!v.show) return [];
  return all
    .filter(
      (s) =>
        s.name === v.show &&
        v.labels.every(([k, val]) => s.labels[k] === val) &&
        (v.hosts.length === 0 || (s.host !== null && v.hosts.includes(s.host))),
    )
    .map((s) => s.id);
}

/** Why a `show` link drew nothing: "No series named X{k=v} on host Y". */
export function noShownText(v: Pick<MetricsViewState, 'show' | 'labels' | 'hosts'>): string {
  const labels = labelText(Object.fromEntries(v.labels));
  const where = v.hosts.length === 0 ? '' : ` on ${v.hosts.length === 1 ? 'host' : 'hosts'} ${v.hosts.join(', ')}`;
  return `No series named ${v.show}${labels ? `{${labels}}` : ''}${where}`;
}

export const metricsHref = (s: Partial<MetricsViewState>): string =>
  `/metrics?${encodeMetricsView({ ...EMPTY_METRICS_VIEW, ...s }).toString()}`;
