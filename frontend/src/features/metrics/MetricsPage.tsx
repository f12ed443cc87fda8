import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { listIncidentSeries, listSeries, querySeriesPoints } from '../../api/endpoints';
import type { MetricPoints, MetricSeries } from '../../api/types';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { currentSearch } from '../../shared/currentSearch';
import { useCapturesLabel } from '../../shared/hooks/useCapturesLabel';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useUrlText } from '../../shared/hooks/useUrlText';
import { bucketsFor, bucketsForWidth, capturesApart, chartsByUnit, seriesWindows, toChartPoints, type ChartSeries, type XMode } from './chartData';
import { MetricSummaryTable } from './MetricSummaryTable';
import { decodeMetricsView, encodeMetricsView, noShownText, seriesToShow, wantsShown, type CounterMode, type MetricsViewState } from './metricsView';
import { SeriesPicker } from './SeriesPicker';
import { seriesTitle } from './seriesList';
import { UnitChartBlock } from './UnitChartBlock';
import './metrics.css';

/** Colours that read on dark and light backgrounds. */
const COLORS = ['#5aa9ff', '#e8a23c', '#58b368', '#e0715a', '#b58cf0', '#3cc4c4', '#d36ba6', '#a3a84a'];

/** Module-level so useQueries keeps the combined array stable while no query result changes. */
const combinePoints = (results: { data: MetricPoints | undefined; error: Error | null }[]) => ({
  data: results.map((r) => r.data),
  error: results.find((r) => r.error)?.error ?? null,
});

export function MetricsPage() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => decodeMetricsView(params), [params]);
  useDocumentTitle('Metrics');
  // Series picked (by hand or from a `show` link) replace what the link asked to show.
  const setView = (patch: Partial<MetricsViewState>) =>
    setParams(encodeMetricsView({ ...decodeMetricsView(currentSearch()), ...patch, ...('series' in patch ? { show: '', labels: [] } : {}) }), {
      replace: true,
    });
  if (view.captures.length === 0 && view.incident === null) {
    return (
      <EmptyState title="Choose an incident">
        <p>
          The metrics view shows the metric captures of an incident (sysstat, Prometheus range queries, CSV, JSON lines, the collector’s /proc
          sampler). Open it from an incident’s page, or pick an incident: <Link to="/">Incidents</Link>
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <ViewTabs />
      <MetricsView view={view} setView={setView} />
    </>
  );
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
  const byIncident = view.captures.length === 0;
  const list = useQuery({
    queryKey: ['metric-series', view.captures, byIncident ? view.incident : null],
    queryFn: ({ signal }) => (byIncident && view.incident !== null ? listIncidentSeries(view.incident, signal) : listSeries(view.captures, signal)),
  });
  const search = useUrlText(view.search, (text) => setView({ search: text }));
  // A link naming a series (a finding's evidence) becomes that series' ids once the list is here.
  useEffect(() => {
    if (!list.data || !wantsShown(view)) return;
    const ids = seriesToShow(list.data, view);
    if (ids.length > 0) setView({ series: ids });
  }, [list.data, view, setView]);

  const named = useCapturesLabel(view.incident, view.captures);
  const crumbs = <Breadcrumbs incident={view.incident} trail={[{ label: byIncident ? 'metrics of every capture' : `metrics of ${named}` }]} />;

  if (list.data && list.data.length === 0) {
    return (
      <div className="stack metrics-page">
        {crumbs}
        <EmptyState title={byIncident ? `Incident #${String(view.incident)} has no metric series yet` : 'These captures hold no metric series'}>
          <p className="muted">
            Metrics come from sysstat (sar, mpstat, iostat, vmstat), Prometheus range queries, CSV or JSON-lines files and the collector’s /proc
            sampler: upload them on the incident page and they appear here.
          </p>
          {view.incident !== null ? (
            <p>
              <Link to={`/incidents/${view.incident}`}>Open incident #{view.incident}</Link>
            </p>
          ) : null}
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="stack metrics-page">
      {crumbs}
      {list.isError ? <ErrorBanner title="Could not load the series." error={list.error} onRetry={() => void list.refetch()} /> : null}
      <div className="metrics-layout">
        {list.data ? (
          <SeriesPicker
            all={list.data}
            search={search.draft}
            onSearch={search.setDraft}
            onSearchNow={search.setNow}
            chosen={view.series}
            onToggle={(id) => setView({ series: view.series.includes(id) ? view.series.filter((x) => x !== id) : [...view.series, id] })}
            onAdd={(ids) => setView({ series: [...view.series, ...ids.filter((id) => !view.series.includes(id))] })}
          />
        ) : (
          <aside className="series-list" aria-label="Series">
            <p className="muted small">{list.isPending ? 'Loading series…' : 'No series.'}</p>
          </aside>
        )}
        <Charts all={list.data} view={view} setView={setView} />
      </div>
    </div>
  );
}

function Charts({ all, view, setView }: { all: MetricSeries[] | undefined; view: MetricsViewState; setView: (p: Partial<MetricsViewState>) => void }) {
  const [boxRef, width] = useWidth<HTMLDivElement>();
  const buckets = bucketsForWidth(width || 800);
  const byId = useMemo(() => new Map((all ?? []).map((s) => [s.id, s])), [all]);
  const chosen = useMemo(() => view.series.flatMap((id) => byId.get(id) ?? []), [view.series, byId]);
  const windows = useMemo(() => seriesWindows(chosen, view.x), [chosen, view.x]);
  const drawable = chosen.filter((s) => windows.has(s.id));
  const rate = view.counters === 'raw' ? false : undefined;
  const points = useQueries({
    queries: drawable.map((s) => {
      const w = windows.get(s.id);
      const n = bucketsFor(s, w, buckets);
      return {
        queryKey: ['metric-points', s.id, n, w?.start, w?.end, rate],
        queryFn: ({ signal }: { signal: AbortSignal }) => querySeriesPoints(s.id, { buckets: n, start: w?.start, end: w?.end, rate }, signal),
        staleTime: 60_000,
      };
    }),
    combine: combinePoints,
  });
  const chartSeries: ChartSeries[] = useMemo(
    () =>
      drawable.flatMap((s, i) => {
        const data = points.data[i];
        const w = windows.get(s.id);
        if (!data || !w) return [];
        return [
          {
            id: s.id,
            title: seriesTitle(s),
            color: COLORS[view.series.indexOf(s.id) % COLORS.length] ?? '#888',
            kind: data.kind,
            drawn: data.drawn,
            unit: data.unit ?? '',
            reason: data.kind_reason,
            resets: data.resets,
            points: toChartPoints(data.points, w.originMs),
          },
        ];
      }),
    [drawable, points.data, windows, view.series],
  );
  const charts = chartsByUnit(chartSeries);
  const apart = view.x === 'time' && capturesApart(chosen);

  return (
    <section className="chart-box" ref={boxRef}>
      <ChartControls x={view.x} counters={view.counters} onX={(x) => setView({ x })} onCounters={(counters) => setView({ counters })} />
      {apart ? (
        <p className="metrics-hint small" role="note">
          These captures were recorded at different times.{' '}
          <button type="button" className="btn btn--small" onClick={() => setView({ x: 'start' })}>
            Align by capture start
          </button>{' '}
          to compare them on one axis.
        </p>
      ) : null}
      {points.error ? <ErrorBanner title="Could not load points." error={points.error} /> : null}
      {chosen.length === 0 && wantsShown(view) && !all ? <p className="muted">Loading series…</p> : null}
      {chosen.length === 0 && wantsShown(view) && all ? (
        <EmptyState title={noShownText(view)}>
          <p className="muted small">The link asked for this series, but no capture of the incident holds it. Pick one or more series from the list.</p>
        </EmptyState>
      ) : null}
      {chosen.length === 0 && !wantsShown(view) ? (
        <EmptyState title="Pick one or more series">
          <p className="muted small">
            Counters are drawn as their rate per second, latencies as p50/p90/p99/max per bucket, other series as their average with the min–max
            band. “all N” beside a series adds the same metric from every host and capture.
          </p>
        </EmptyState>
      ) : null}
      {chosen.length > 0 && drawable.length === 0 ? <p className="muted">The chosen series have no points.</p> : null}
      {charts.map((chart) => (
        <UnitChartBlock key={chart.unit} chart={chart} xMode={view.x} width={width} />
      ))}
      {chartSeries.length > 0 ? <MetricSummaryTable series={chartSeries} /> : null}
    </section>
  );
}

function ChartControls({ x, counters, onX, onCounters }: { x: XMode; counters: CounterMode; onX: (x: XMode) => void; onCounters: (c: CounterMode) => void }) {
  return (
    <div className="metrics-controls">
      <Segmented
        label="X axis"
        value={x}
        options={[
          ['time', 'Wall clock (UTC)', 'All series on one UTC time axis'],
          ['start', 'Since capture start', 'Each series at its offset from its capture’s first point: compare runs recorded at different times'],
        ]}
        onChange={onX}
      />
      <Segmented
        label="Counters"
        value={counters}
        options={[
          ['rate', 'Rate per second', 'Cumulative counters as their increase per second, resets read as restarts from zero'],
          ['raw', 'Raw values', 'Cumulative counters as the values recorded'],
        ]}
        onChange={onCounters}
      />
    </div>
  );
}

function Segmented<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: [T, string, string][]; onChange: (v: T) => void }) {
  const id = `metrics-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className="metrics-controls__field">
      <span id={id} className="muted small">
        {label}
      </span>
      <div className="metrics-segmented" role="radiogroup" aria-labelledby={id}>
        {options.map(([v, text, title]) => (
          <button
            key={v}
            type="button"
            role="radio"
            aria-checked={value === v}
            className={`metrics-segmented__item${value === v ? ' metrics-segmented__item--on' : ''}`}
            title={title}
            onClick={() => onChange(v)}
          >
            {text}
          </button>
        ))}
      </div>
    </div>
  );
}
