/**
 * The metric chart's view state in the URL
 * (`/metrics?v=1&incident=2&captures=3&series=8,18&q=cpu&x=start&counters=raw`). Pure.
 * `x` and `counters` came later and default to what links without them meant: wall clock, rates.
 */
import { parseIds } from '../events/eventsView';
import type { XMode } from './chartData';

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
}

export const EMPTY_METRICS_VIEW: MetricsViewState = { incident: null, captures: [], series: [], search: '', x: 'time', counters: 'rate' };

export function encodeMetricsView(s: MetricsViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(METRICS_VIEW_VERSION));
  if (s.incident !== null) p.set('incident', String(s.incident));
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.series.length > 0) p.set('series', s.series.join(','));
  if (s.search) p.set('q', s.search);
  if (s.x !== 'time') p.set('x', s.x);
  if (s.counters !== 'rate') p.set('counters', s.counters);
  return p;
}

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
  };
}

export const metricsHref = (s: Partial<MetricsViewState>): string =>
  `/metrics?${encodeMetricsView({ ...EMPTY_METRICS_VIEW, ...s }).toString()}`;
