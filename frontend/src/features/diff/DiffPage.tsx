import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { listCaptures } from '../../api/endpoints';
import type { Capture } from '../../api/types';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { currentSearch } from '../../shared/currentSearch';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcuts } from '../../shared/hooks/useShortcuts';
import { formatCount, formatDurationNs, formatPercent, formatValue } from '../../shared/units';
import { RelevantFindings } from '../findings/RelevantFindings';
import { hostsOfCaptures } from '../findings/relevance';
import { deepestExisting, pathKey } from '../flame/tree';
import { ZoomCrumbs } from '../flame/ZoomCrumbs';
import { diffQuery, zoomedDiffQuery, type DiffNode, type DiffQuery, type DiffResponse } from './api';
import { largestChange } from './colors';
import { DiffChart } from './DiffChart';
import { DiffControls } from './DiffControls';
import { DiffLegend } from './DiffLegend';
import { DiffTable } from './DiffTable';
import { baselinePresets, sideQuery } from './sides';
import { BaselinePrompt, SideEditor } from './SideEditor';
import { useDiffTiming } from './useDiffTiming';
import { decodeDiffState, patchDiffState, type DiffViewState } from './urlState';
import { sideTree, type DiffTotals } from './view';
import { DIFF_SHORTCUTS } from './shortcuts';
import './diff.css';

type SetView = (patch: Partial<DiffViewState>, push?: boolean) => void;

/** The differential flame graph: B against a baseline A, both selections kept in the URL. */
export function DiffPage() {
  const [params, setParams] = useSearchParams();
  const { state: view, warnings } = useMemo(() => decodeDiffState(params), [params]);
  useDocumentTitle(view.incident !== null ? `Diff · incident #${view.incident}` : 'Diff');
  /** Zooms are history entries (Back zooms out); everything else replaces the current one. */
  const setView: SetView = (patch, push = false) => setParams(patchDiffState(currentSearch(), patch), { replace: !push });
  return (
    <>
      <ViewTabs />
      {view.incident === null ? (
        <EmptyState title="No incident selected">
          <p>
            Open the diff from an incident’s views (the tabs above carry its selection). <Link to="/">Incidents</Link>
          </p>
        </EmptyState>
      ) : (
        <DiffView incident={view.incident} view={view} warnings={warnings} setView={setView} />
      )}
    </>
  );
}

const NO_CAPTURES: Capture[] = [];

function DiffView({ incident, view, warnings, setView }: { incident: number; view: DiffViewState; warnings: string[]; setView: SetView }) {
  const captures = useQuery({
    queryKey: ['diff', 'captures', incident],
    queryFn: ({ signal }) => listCaptures(incident, signal),
    staleTime: 10_000,
  });
  const list = captures.data ?? NO_CAPTURES;
  const presets = useMemo(() => baselinePresets(view.b, list), [view.b, list]);
  // Without the capture list (still loading, or failed) only sides that name their captures resolve.
  const q: DiffQuery | null =
    view.a && (captures.data || captures.isError)
      ? {
          a: sideQuery(view.a, list),
          b: sideQuery(view.b, list),
          source: view.source,
          state: view.state,
          event: view.event,
          normalize: view.normalize,
        }
      : null;
  const missing = q === null ? null : q.a.captures.length === 0 ? 'A' : q.b.captures.length === 0 ? 'B' : null;
  const ready = q !== null && missing === null;
  const diff = useQuery({ ...diffQuery(q ?? EMPTY_QUERY), enabled: ready, placeholderData: keepPreviousData });
  const data = ready ? diff.data : undefined;
  const qc = useQueryClient();
  const zooming = data !== undefined && view.zoom.length > 0;
  const zoomed = useQuery({
    ...zoomedDiffQuery(qc, q ?? EMPTY_QUERY, view.zoom),
    enabled: ready && zooming,
    placeholderData: keepPreviousData,
  });
  // The previous zoom's tree stays drawn while the next one's detail loads, never over another diff.
  const detail = zooming && zoomed.data?.base === data ? zoomed.data : undefined;

  useShortcuts(DIFF_SHORTCUTS, {
    reset: () => {
      if (view.zoom.length === 0 && !view.search) return false;
      setView({ zoom: [], search: '' }, view.zoom.length > 0);
    },
  });

  return (
    <div className="stack diff-page">
      <Breadcrumbs incident={incident} trail={[{ label: 'differential flame graph: B against A' }]} />
      {warnings.map((w) => (
        <div key={w} className="banner banner--info">
          {w}
        </div>
      ))}
      {captures.isError ? <ErrorBanner title="Could not load the incident’s captures." error={captures.error} onRetry={() => void captures.refetch()} /> : null}
      <RelevantFindings incident={incident} hosts={hostsOfCaptures(list, q ? [...q.a.captures, ...q.b.captures] : [])} />

      <div className="diff-sides">
        {view.a ? (
          <SideEditor label="A" title="baseline" side={view.a} captures={list} onChange={(a) => setView({ a })} onClear={() => setView({ a: null })} />
        ) : (
          <BaselinePrompt presets={presets} onPick={(a) => setView({ a })} onEdit={() => setView({ a: { ...view.b } })} />
        )}
        <SideEditor label="B" title="compared with A" side={view.b} captures={list} onChange={(b) => setView({ b })} />
      </div>

      <DiffControls view={view} data={data} onChange={setView} onSwap={() => view.a && setView({ a: view.b, b: view.a })} />

      {missing ? (
        <div className="banner banner--info" role="status">
          Side {missing} selects no parsed capture: tick at least one of its captures.
        </div>
      ) : null}
      {diff.isError && ready ? <ErrorBanner title="Could not compute the diff." error={diff.error} onRetry={() => void diff.refetch()} /> : null}

      {view.a === null ? (
        <div className="flame-placeholder muted" data-testid="diff-needs-a">
          Pick the baseline A above to see what changed in B.
        </div>
      ) : data ? (
        <DiffResult
          view={view}
          data={data}
          root={detail?.tree ?? data.root}
          grafted={detail?.grafted ?? []}
          loading={diff.isFetching || (zooming && zoomed.isFetching)}
          setView={setView}
        />
      ) : ready && diff.isPending ? (
        <div className="flame-placeholder muted">Computing the diff…</div>
      ) : captures.isPending ? (
        <div className="flame-placeholder muted">Loading captures…</div>
      ) : null}
    </div>
  );
}

const EMPTY_SIDE_QUERY = { captures: [], fromUs: null, toUs: null, pid: null, tid: null, comm: null, within: null };
const EMPTY_QUERY: DiffQuery = { a: EMPTY_SIDE_QUERY, b: EMPTY_SIDE_QUERY, source: 'cpu', state: null, event: null, normalize: 'total' };

interface DiffResultProps {
  view: DiffViewState;
  data: DiffResponse;
  /** The tree to draw: the diff's, with focused detail grafted in under the zoom. */
  root: DiffNode;
  grafted: string[][];
  loading: boolean;
  setView: SetView;
}

function DiffResult({ view, data, root, grafted, loading, setView }: DiffResultProps) {
  const aTree = useMemo(() => (view.mode === 'b' ? null : sideTree(root, 'a')), [root, view.mode]);
  const largest = useMemo(() => largestChange(data.root), [data]);
  const totals: DiffTotals = { a: data.a.total, b: data.b.total, scale: data.scale, normalize: data.normalize, unit: data.unit };
  const empty = data.a.total === 0 && data.b.total === 0;
  const charts = empty ? 0 : view.mode === 'side' ? 2 : 1;
  const timing = useDiffTiming({ data, zoomKey: pathKey(view.zoom), search: view.search, charts });
  const zoomTo = (path: string[]) => setView({ zoom: path }, true);
  const offcpu = data.source === 'off-cpu';
  const counted = offcpu ? 'off-CPU intervals' : 'samples';
  const what = offcpu ? `blocked time${data.state ? ` in state ${data.state}` : ''}` : (data.event ?? 'all events');
  const shown = view.mode === 'a' ? aTree : root;

  const chart = (side: 'a' | 'b') => {
    const tree = side === 'a' ? aTree : root;
    if (!tree) return null;
    return (
      <DiffChart
        key={side}
        tree={tree}
        side={side}
        largest={largest}
        totals={totals}
        search={view.search}
        zoom={view.zoom}
        onZoom={zoomTo}
        onSettled={timing.settled}
        label={side === 'a' ? 'A, coloured by the change in B' : 'B, coloured by the change from A'}
      />
    );
  };

  return (
    <>
      <div className="flame-status small diff-status" data-testid="diff-status">
        <span>
          <strong>{what}</strong> · <span className="diff-side__badge diff-side__badge--a">A</span> {formatValue(data.a.total, data.unit)} in{' '}
          {formatCount(data.a.samples)} {counted} · <span className="diff-side__badge diff-side__badge--b">B</span>{' '}
          {formatValue(data.b.total, data.unit)} in {formatCount(data.b.samples)} {counted}
        </span>
        <span>
          {data.normalize === 'total'
            ? data.scale !== 1
              ? `A scaled ×${Number(data.scale.toPrecision(3))} to B’s total: colours compare shares`
              : 'shares compared (equal totals, or a side is empty)'
            : 'raw weights compared'}
        </span>
        <span>{formatCount(data.node_count)} frames</span>
        {data.pruned_nodes > data.deep_nodes ? (
          <span className="prune-note">
            {formatCount(data.pruned_nodes - data.deep_nodes)} frames below {formatPercent(data.prune_threshold)} folded into (other)
          </span>
        ) : null}
        {data.deep_nodes > 0 ? (
          <span className="prune-note" data-testid="diff-deep-note">
            {formatCount(data.deep_nodes)} frames past the depth budget folded into (deeper) — click one to load the next levels
          </span>
        ) : null}
        {grafted.length > 0 ? <span className="muted">full detail loaded under {grafted.at(-1)?.at(-1) ?? ''}</span> : null}
        {timing.latest && !loading ? (
          <span className="muted" data-testid="diff-timing" title="From data arriving, a click or a search to every chart drawn">
            {timing.latest.kind} {formatDurationNs(timing.latest.ms * 1e6)}
          </span>
        ) : null}
        {loading ? <span className="muted live-dot">loading…</span> : null}
      </div>

      {!empty && (data.a.total === 0 || data.b.total === 0) ? (
        <div className="banner banner--info" role="status">
          {data.a.total === 0 ? 'A' : 'B'} has no {counted} for these filters: every frame shows as {data.a.total === 0 ? 'new' : 'gone'}.
        </div>
      ) : null}

      <ZoomCrumbs zoom={view.zoom} present={shown ? deepestExisting(shown, view.zoom).length : view.zoom.length} onZoom={zoomTo} />

      {empty ? (
        <EmptyState title={`Nothing to compare: neither side has ${counted} for these filters`}>
          {offcpu ? (
            <p className="muted small">
              Off-CPU time comes from scheduler captures (<code>perf record -e sched:sched_switch …</code> then <code>perf script</code>).
            </p>
          ) : null}
        </EmptyState>
      ) : view.mode === 'side' ? (
        <div className="diff-stacked">
          <h3 className="diff-chart__title">
            <span className="diff-side__badge diff-side__badge--a">A</span> baseline — widths are A’s weights
          </h3>
          {chart('a')}
          <h3 className="diff-chart__title">
            <span className="diff-side__badge diff-side__badge--b">B</span> compared — widths are B’s weights
          </h3>
          {chart('b')}
        </div>
      ) : (
        chart(view.mode)
      )}

      <div className="flame-foot">
        <DiffLegend />
        <span className="muted small">Hover for A, B and the change · click a frame to zoom · Back zooms out · Esc resets</span>
      </div>

      <h2 className="diff-table__title">Functions by change</h2>
      <DiffTable
        functions={data.functions}
        total={data.function_count}
        unit={data.unit}
        scale={data.scale}
        search={view.search}
        onPick={(name) => setView({ search: name })}
      />
    </>
  );
}
