import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { getSeriesPoints, listSeries } from '../../api/endpoints';
import type { MetricPoints } from '../../api/types';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useUrlText } from '../../shared/hooks/useUrlText';
import { formatCount } from '../../shared/units';
import { eventTimeUtc } from '../events/eventFormat';
import { MetricChart, type ChartSeries, type Readout } from './MetricChart';
import { decodeMetricsView, encodeMetricsView, type MetricsViewState } from './metricsView';
import { bucketsForWidth, groupSeries, labelText, seriesTitle, toChartPoints } from './seriesList';

const COLORS = d3Palette();

/** Colours that read on dark and light backgrounds. */
function d3Palette(): string[] {
  return ['#5aa9ff', '#e8a23c', '#58b368', '#e0715a', '#b58cf0', '#3cc4c4', '#d36ba6', '#a3a84a'];
}

/** Module-level so useQueries keeps the combined array stable while no query result changes. */
const combinePoints = (results: { data: MetricPoints | undefined; error: Error | null }[]) => ({
  data: results.map((r) => r.data),
  error: results.find((r) => r.error)?.error ?? null,
});

const fmt = (v: number): string => (Math.abs(v) >= 1000 ? formatCount(Math.round(v)) : String(Number(v.toPrecision(6))));

export function MetricsPage() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => decodeMetricsView(params), [params]);
  useDocumentTitle('Metrics');
  const setView = (patch: Partial<MetricsViewState>) =>
    setParams(encodeMetricsView({ ...decodeMetricsView(window.location.search), ...patch }), { replace: true });
  if (view.captures.length === 0) {
    return (
      <EmptyState title="No captures selected">
        <p>
          Open metrics from a metrics capture (sysstat, Prometheus, CSV/JSONL) on an incident page. <Link to="/">Incidents</Link>
        </p>
      </EmptyState>
    );
  }
  return <MetricsView view={view} setView={setView} />;
}

function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    ro.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

function MetricsView({ view, setView }: { view: MetricsViewState; setView: (p: Partial<MetricsViewState>) => void }) {
  const list = useQuery({ queryKey: ['metric-series', view.captures], queryFn: ({ signal }) => listSeries(view.captures, signal) });
  const search = useUrlText(view.search, (text) => setView({ search: text }));
  const groups = useMemo(() => groupSeries(list.data ?? [], search.draft), [list.data, search.draft]);
  const [boxRef, width] = useWidth<HTMLDivElement>();
  const buckets = bucketsForWidth(width || 800);
  const [readout, setReadout] = useState<Readout | null>(null);

  const byId = useMemo(() => new Map((list.data ?? []).map((s) => [s.id, s])), [list.data]);
  const chosen = useMemo(() => view.series.filter((id) => byId.has(id) || list.data === undefined), [view.series, byId, list.data]);
  const points = useQueries({
    queries: chosen.map((id) => ({
      queryKey: ['metric-points', id, buckets],
      queryFn: ({ signal }: { signal: AbortSignal }) => getSeriesPoints(id, buckets, signal),
      staleTime: 60_000,
    })),
    combine: combinePoints,
  });
  const chartSeries: ChartSeries[] = useMemo(
    () =>
      chosen.flatMap((id, i) => {
        const data = points.data[i];
        const s = byId.get(id);
        if (!data || !s) return [];
        return [{ id, title: seriesTitle(s), color: COLORS[i % COLORS.length] ?? '#888', points: toChartPoints(data.points) }];
      }),
    [chosen, byId, points.data],
  );
  const units = [...new Set(chosen.map((id) => byId.get(id)?.unit ?? '').filter(Boolean))];
  const toggle = (id: number) => setView({ series: view.series.includes(id) ? view.series.filter((x) => x !== id) : [...view.series, id] });
  const pointsError = points.error;

  return (
    <div className="stack metrics-page">
      <nav className="crumbs">
        <Link to="/">Incidents</Link> <span aria-hidden="true">›</span>{' '}
        {view.incident !== null ? (
          <>
            <Link to={`/incidents/${view.incident}`}>#{view.incident}</Link> <span aria-hidden="true">›</span>{' '}
          </>
        ) : null}
        <span>metrics of {view.captures.map((c) => `#${c}`).join(', ')}</span>
      </nav>
      {list.isError ? <ErrorBanner title="Could not load the series." error={list.error} onRetry={() => void list.refetch()} /> : null}
      <div className="metrics-layout">
        <aside className="series-list" aria-label="Series">
          <input
            type="search"
            className="series-search"
            placeholder="Filter series (name or label)"
            aria-label="Filter series"
            value={search.draft}
            onChange={(e) => search.setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') search.setNow('');
            }}
          />
          {list.isPending ? <p className="muted small">Loading series…</p> : null}
          {list.data && list.data.length === 0 ? (
            <p className="muted small">These captures hold no metric series. Metrics come from sysstat, Prometheus range queries, CSV or JSONL uploads.</p>
          ) : null}
          {list.data && list.data.length > 0 && groups.length === 0 ? <p className="muted small">No series match.</p> : null}
          {groups.map((g) => (
            <details key={g.name} open={groups.length <= 8 || g.series.some((s) => view.series.includes(s.id))}>
              <summary>
                <span className="mono">{g.name}</span> <span className="muted small">{g.unit ? `(${g.unit}) ` : ''}{g.series.length}</span>
              </summary>
              <ul>
                {g.series.map((s) => (
                  <li key={s.id}>
                    <label className="series-item">
                      <input type="checkbox" checked={view.series.includes(s.id)} onChange={() => toggle(s.id)} />
                      <span className="mono small">{labelText(s.labels) || '(no labels)'}</span>
                      <span className="muted small">{formatCount(s.points)} pts</span>
                    </label>
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </aside>
        <section className="chart-box" ref={boxRef}>
          {pointsError ? <ErrorBanner title="Could not load points." error={pointsError} /> : null}
          {chosen.length === 0 ? (
            <EmptyState title="Pick one or more series">
              <p className="muted small">Each series is drawn as its average, with the min–max range of each bucket as a band.</p>
            </EmptyState>
          ) : (
            <>
              <MetricChart series={chartSeries} unit={units.join(' / ')} width={width} onHover={setReadout} />
              <div className="readout small" aria-live="polite" data-testid="metric-readout">
                {readout ? (
                  <>
                    <div className="mono">{eventTimeUtc(new Date(readout.t).toISOString())} UTC</div>
                    {readout.values.map((v) => (
                      <div key={v.id} className="readout__row">
                        <span className="swatch" style={{ background: v.color }} aria-hidden="true" />
                        <span className="mono">{v.title}</span>{' '}
                        <strong>{fmt(v.point.avg)}</strong>
                        {v.point.count > 1 ? (
                          <span className="muted">
                            {' '}
                            (min {fmt(v.point.min)}, max {fmt(v.point.max)}, {formatCount(v.point.count)} points)
                          </span>
                        ) : null}
                      </div>
                    ))}
                  </>
                ) : (
                  <span className="muted">Hover the chart for exact values.</span>
                )}
              </div>
              <ul className="legend small">
                {chartSeries.map((s) => (
                  <li key={s.id}>
                    <span className="swatch" style={{ background: s.color }} aria-hidden="true" /> <span className="mono">{s.title}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
    </div>
  );
}
