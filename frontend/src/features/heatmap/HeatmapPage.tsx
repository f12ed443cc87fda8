/**
 * The sub-second heatmap: seconds across, offset within each second down, coloured by count or
 * summed duration. Dragging over cells sets the shared selection (`from`/`to` = the columns'
 * seconds, `within` = the rows' offsets), which the flame graph and the diff take as they are.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { currentSearch } from '../../shared/currentSearch';
import { useCapturesLabel } from '../../shared/hooks/useCapturesLabel';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcuts } from '../../shared/hooks/useShortcuts';
import { readSelection, writeSelection, type Selection } from '../../shared/selection';
import { formatDurationNs } from '../../shared/units';
import { capturesQuery } from '../captures/queries';
import type { HeatmapResponse } from './api';
import { formatHeat, formatOffset, rangeSelection, selectionRange, type CellRange } from './grid';
import { gridOf } from './cells';
import { heatScale } from './colour';
import { HeatmapCanvas } from './HeatmapCanvas';
import { HeatmapControls } from './HeatmapControls';
import { HeatmapLegend } from './HeatmapLegend';
import { HotCells } from './HotCells';
import { HEATMAP_SHORTCUTS } from './shortcuts';
import { heatmapQuery, streamsQuery } from './queries';
import { SelectionBar } from './SelectionBar';
import { capturesToShow, isParsed, sourcesFromStreams, STREAM_HINTS, STREAM_LABELS, streamSources } from './sources';
import { patchHeatmapView, readHeatmapView, type HeatmapView } from './urlState';
import { useRenderTiming } from './useRenderTiming';
import './heatmap.css';

/** Columns the server may send before merging seconds; the canvas fits them to the width. */
const MAX_COLUMNS = 600;

export function HeatmapPage() {
  const [params, setParams] = useSearchParams();
  const decoded = useMemo(() => readSelection(params), [params]);
  const viewState = useMemo(() => readHeatmapView(params), [params]);
  const { selection } = decoded;
  const { view } = viewState;
  const warnings = [...decoded.warnings, ...viewState.warnings];
  useDocumentTitle(selection.incident !== null ? `Heatmap · incident #${selection.incident}` : 'Heatmap');

  /** Apply to the URL as it is now: a quick second change must not undo the first. */
  const setView = (patch: Partial<HeatmapView>) => setParams(patchHeatmapView(currentSearch(), patch), { replace: true });
  const setSelection = (patch: Partial<Selection>, push: boolean) => {
    const current = new URLSearchParams(currentSearch());
    setParams(writeSelection(current, { ...readSelection(current).selection, ...patch }), { replace: !push });
  };

  const incident = selection.incident;
  const incidentCaptures = useQuery({ ...capturesQuery(incident ?? 0), enabled: incident !== null });
  const urlStreams = useQuery({ ...streamsQuery(selection.captures), enabled: incident === null && selection.captures.length > 0 });
  const parsed = useMemo(() => (incidentCaptures.data ?? []).filter(isParsed), [incidentCaptures.data]);
  const sources = useMemo(
    () => (incident !== null ? streamSources(parsed) : urlStreams.data ? sourcesFromStreams(urlStreams.data, selection.captures) : []),
    [incident, parsed, urlStreams.data, selection.captures],
  );
  const stream = view.stream ?? sources[0]?.stream ?? null;
  const shown = capturesToShow(selection.captures, sources, stream);
  const named = useCapturesLabel(incident, shown);
  const streams = useQuery(streamsQuery(shown));
  const info = streams.data?.streams.find((s) => s.stream === stream);
  const heatmap = useQuery({
    ...heatmapQuery({
      captures: shown,
      stream: stream ?? 'samples',
      rows: view.rows,
      value: view.value,
      name: view.name,
      state: view.state,
      pid: selection.pid,
      tid: selection.tid,
      comm: selection.comm,
      maxColumns: MAX_COLUMNS,
    }),
    enabled: stream !== null && shown.length > 0,
    placeholderData: keepPreviousData,
  });
  const data = heatmap.data;
  const timing = useRenderTiming(data);

  const range = data ? selectionRange(gridOf(data), selection.fromUs, selection.toUs, selection.within) : null;
  const hasSelection = selection.fromUs !== null || selection.toUs !== null || selection.within !== null;
  const select = (r: CellRange) => {
    if (!data) return;
    const cells = rangeSelection(gridOf(data), r);
    setSelection({ fromUs: cells.fromUs, toUs: cells.toUs, within: cells.within }, true);
  };
  const clear = () => {
    if (!hasSelection) return false;
    setSelection({ fromUs: null, toUs: null, within: null }, true);
  };
  useShortcuts(HEATMAP_SHORTCUTS, { clear });

  if (incident === null && selection.captures.length === 0) {
    return (
      <>
        <ViewTabs />
        <EmptyState title="No captures selected">
          <p>
            Open the heatmap from an incident’s captures, or add <code>?incident=ID</code> to the address. <Link to="/">Incidents</Link>
          </p>
        </EmptyState>
      </>
    );
  }

  const loadingSources = incident !== null ? incidentCaptures.isPending : urlStreams.isPending;
  return (
    <div className="stack heatmap-page">
      <ViewTabs />
      <Breadcrumbs incident={incident} trail={[{ label: `sub-second heatmap${shown.length > 0 ? ` of ${named}` : ''}` }]} />

      {warnings.map((w) => (
        <div key={w} className="banner banner--info">
          {w}
        </div>
      ))}
      {incidentCaptures.isError ? <ErrorBanner title="Could not load the incident’s captures." error={incidentCaptures.error} /> : null}
      {urlStreams.isError ? <ErrorBanner title="Could not read the captures." error={urlStreams.error} /> : null}

      <HeatmapControls
        view={view}
        stream={stream}
        sources={sources}
        info={info}
        captures={parsed}
        chosen={selection.captures}
        shown={shown}
        currentName={data?.event ?? null}
        onView={setView}
        onCaptures={(ids) => setSelection({ captures: ids }, false)}
      />

      {loadingSources ? <div className="heatmap-placeholder muted">Loading captures…</div> : null}
      {!loadingSources && sources.length === 0 && !urlStreams.isError && !incidentCaptures.isError ? (
        <EmptyState title="Nothing to draw yet">
          <p>
            {incident !== null && parsed.length === 0
              ? 'This incident has no parsed captures yet. '
              : 'These captures hold no timed records (samples or events). '}
            {incident !== null ? <Link to={`/incidents/${incident}`}>Upload or check captures of incident #{incident}</Link> : null}
          </p>
        </EmptyState>
      ) : null}
      {!loadingSources && stream !== null && sources.length > 0 && shown.length === 0 ? (
        <EmptyState title={`No ${STREAM_LABELS[stream].toLowerCase()}`}>
          <p>{STREAM_HINTS[stream]}</p>
          <p className="small">
            {sources.map((s) => (
              <button key={s.stream} type="button" className="btn btn--small" onClick={() => setView({ stream: s.stream, name: null, state: null })}>
                Show {STREAM_LABELS[s.stream]}
              </button>
            ))}
          </p>
        </EmptyState>
      ) : null}

      {heatmap.isError ? <ErrorBanner title="Could not load the heatmap." error={heatmap.error} onRetry={() => void heatmap.refetch()} /> : null}

      {data && shown.length > 0 ? (
        <HeatmapBody
          data={data}
          selection={selection}
          range={range}
          hasSelection={hasSelection}
          shown={shown}
          loading={heatmap.isFetching}
          timingMs={timing.latest && !heatmap.isFetching ? timing.latest.ms : null}
          onSelect={select}
          onClear={clear}
          onDrawn={timing.drawn}
          onClearFilters={() => {
            setView({ name: null, state: null });
            setSelection({ pid: null, tid: null, comm: null }, false);
          }}
        />
      ) : heatmap.isPending && heatmap.fetchStatus === 'fetching' ? (
        <div className="heatmap-placeholder muted">Loading heatmap…</div>
      ) : null}
    </div>
  );
}

interface BodyProps {
  data: HeatmapResponse;
  selection: Selection;
  range: CellRange | null;
  hasSelection: boolean;
  shown: number[];
  loading: boolean;
  timingMs: number | null;
  onSelect: (r: CellRange) => void;
  onClear: () => void;
  onDrawn: (at: number) => void;
  onClearFilters: () => void;
}

function HeatmapBody({ data, selection, range, hasSelection, shown, loading, timingMs, onSelect, onClear, onDrawn, onClearFilters }: BodyProps) {
  const what = data.stream === 'samples' ? (data.event ?? 'samples') : STREAM_LABELS[data.stream].toLowerCase();
  const filtered = selection.pid !== null || selection.tid !== null || selection.comm !== null || data.name !== null || data.state !== null;
  const scale = useMemo(() => heatScale(data.values, data.max), [data]);
  return (
    <>
      <div className="heatmap-status small" data-testid="heatmap-status">
        <span>
          <strong>{what}</strong>
          {data.state ? ` in state ${data.state}` : ''}
          {data.name ? ` named ${data.name}` : ''} · {data.rows} rows of {formatOffset(data.row_us)} · {data.columns} columns of {data.column_seconds} s · darkest{' '}
          {formatHeat(data.max, data.unit)} · total {formatHeat(data.total, data.unit)}
        </span>
        {timingMs !== null ? (
          <span className="muted" data-testid="heatmap-timing" title="From the data arriving to the cells painted">
            drawn in {formatDurationNs(timingMs * 1e6)}
          </span>
        ) : null}
        {loading ? <span className="muted live-dot">loading…</span> : null}
      </div>

      {data.notes.map((n) => (
        <div key={n} className="banner banner--info" data-testid="heatmap-note">
          {n}
        </div>
      ))}

      {hasSelection && data.total_count > 0 ? (
        <SelectionBar
          data={data}
          selection={selection}
          range={range}
          link={{ selection, captures: shown, stream: data.stream, event: data.event, state: data.state }}
          onClear={onClear}
        />
      ) : null}

      {data.total_count === 0 ? (
        <EmptyState title={`No ${what} match these filters`}>
          <p className="muted small">{data.columns > 0 ? 'The captures span these seconds, but nothing in them matches.' : 'The captures have no times.'}</p>
          {filtered ? (
            <button type="button" className="btn" onClick={onClearFilters}>
              Clear filters
            </button>
          ) : null}
        </EmptyState>
      ) : (
        <div className="heatmap-layout">
          <div className="heatmap-main">
            <HeatmapCanvas data={data} scale={scale} selected={range} outside={selection.within?.outside === true} onSelect={onSelect} onDrawn={onDrawn} />
            <HeatmapLegend scale={scale} unit={data.unit} />
          </div>
          <aside className="heatmap-side">
            <HotCells data={data} selected={selection.within?.outside ? null : range} onSelect={onSelect} />
          </aside>
        </div>
      )}

    </>
  );
}
