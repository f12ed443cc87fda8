/** The metric chart's view state in the URL (`/metrics?v=1&captures=3&series=8,18&q=cpu`). Pure. */
import { parseIds } from '../events/eventsView';

export const METRICS_VIEW_VERSION = 1;

export interface MetricsViewState {
  incident: number | null;
  captures: number[];
  /** Selected series ids, in the order they were picked. */
  series: number[];
  search: string;
}

export const EMPTY_METRICS_VIEW: MetricsViewState = { incident: null, captures: [], series: [], search: '' };

export function encodeMetricsView(s: MetricsViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(METRICS_VIEW_VERSION));
  if (s.incident !== null) p.set('incident', String(s.incident));
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.series.length > 0) p.set('series', s.series.join(','));
  if (s.search) p.set('q', s.search);
  return p;
}

export function decodeMetricsView(input: URLSearchParams | string): MetricsViewState {
  const p = new URLSearchParams(input);
  const incident = Number(p.get('incident') ?? '');
  return {
    incident: p.get('incident') && Number.isInteger(incident) ? incident : null,
    captures: parseIds(p.get('captures')),
    series: parseIds(p.get('series')),
    search: p.get('q') ?? '',
  };
}

export const metricsHref = (s: Partial<MetricsViewState>): string =>
  `/metrics?${encodeMetricsView({ ...EMPTY_METRICS_VIEW, ...s }).toString()}`;
