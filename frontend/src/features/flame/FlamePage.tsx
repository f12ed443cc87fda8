import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { flameExportUrl, foldedUrl } from '../../api/endpoints';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { useSelectionCaptures } from '../captures/selectionCaptures';
import { currentSearch } from '../../shared/currentSearch';
import { epochUsFromIso } from '../../shared/selection';
import { SelectionChips } from '../../shared/components/SelectionChips';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useCapturesLabel } from '../../shared/hooks/useCapturesLabel';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcuts } from '../../shared/hooks/useShortcuts';
import { literalMatcher } from '../../shared/regex';
import { formatCount, formatDurationNs, formatPercent, formatValue, share } from '../../shared/units';
import { FlameChart } from './FlameChart';
import { FlameFilters } from './FlameFilters';
import { FlameLegend } from './FlameLegend';
import { foldedFileName, needsTimeStart, toFlameQuery } from './flameQuery';
import { FlameToolbar } from './FlameToolbar';
import { OffCpuHint } from './OffCpuHint';
import { facetsQuery, flameQuery, prefetchZoomedTree, useZoomedTree } from './queries';
import { deepestExisting, matchedValue, pathKey } from './tree';
import { SOURCE_WORDS } from './sources';
import { decodeFlameState, hasStates, patchFlameState, type FlameViewState } from './urlState';
import { useViewTiming } from './useViewTiming';
import { ZoomCrumbs } from './ZoomCrumbs';
import { FLAME_SHORTCUTS } from './shortcuts';
import './flame.css';

const chartSvg = (): SVGSVGElement | null => document.querySelector<SVGSVGElement>('[data-testid="flame-chart"] svg');

export function FlamePage() {
  const [params, setParams] = useSearchParams();
  const { state: view, warnings } = useMemo(() => decodeFlameState(params), [params]);
  useDocumentTitle(view.incident !== null ? `Flame graph · incident #${view.incident}` : 'Flame graph');

  /**
   * Zooms are history entries (Back zooms out); typing and filter tweaks replace the current one.
   * The patch applies to the URL as it is now, not to the view of the last render: a debounced
   * search commit that lands just after a zoom click must not undo the zoom.
   */
  const setView = (patch: Partial<FlameViewState>, push = false) =>
    setParams(patchFlameState(currentSearch(), patch), { replace: !push });
  const captures = useSelectionCaptures(view, view.source === 'off-cpu' ? 'off-cpu' : 'samples');

  if (captures.ids.length === 0) {
    return (
      <>
        {view.incident !== null ? <ViewTabs /> : null}
        <Breadcrumbs incident={view.incident} trail={[{ label: SOURCE_WORDS[view.source].graph }]} />
        {captures.error ? <ErrorBanner title="Could not load the incident's captures." error={captures.error} /> : null}
        {captures.pending ? (
          <div className="flame-placeholder muted">Loading captures…</div>
        ) : (
          <EmptyState title={view.incident !== null ? 'No parsed captures with this data yet' : 'No captures selected'}>
            <p>
              {SOURCE_WORDS[view.source].needs}
              {view.incident !== null ? (
                <Link to={`/incidents/${view.incident}`}>Upload to incident #{view.incident}</Link>
              ) : (
                <Link to="/">Pick an incident</Link>
              )}
            </p>
            <OffCpuHint view={view} />
          </EmptyState>
        )}
      </>
    );
  }
  return <FlameView view={{ ...view, captures: captures.ids }} warnings={warnings} setView={setView} />;
}

function FlameView({
  view,
  warnings,
  setView,
}: {
  view: FlameViewState;
  warnings: string[];
  setView: (patch: Partial<FlameViewState>, push?: boolean) => void;
}) {
  const offcpu = view.source === 'off-cpu';
  const named = useCapturesLabel(view.incident, view.captures);
  const stated = hasStates(view.source);
  const facets = useQuery(facetsQuery(view.captures, stated ? view.source : undefined, stated ? (view.state ?? undefined) : undefined));
  const timeReady = !needsTimeStart(view) || facets.data !== undefined || facets.isError;
  const timeStart = facets.data?.time_start ?? null;
  const q = toFlameQuery(view, timeStart);
  // Old links carry offsets from the captures' start: once that start is known, store absolute times.
  useEffect(() => {
    if (!needsTimeStart(view) || timeStart === null) return;
    const origin = epochUsFromIso(timeStart);
    if (origin === null) return;
    const at = (offset: number | null) => (offset === null ? null : origin + Math.round(offset * 1e6));
    setView({ fromUs: at(view.legacyStart), toUs: at(view.legacyEnd), legacyStart: null, legacyEnd: null });
  }, [view, timeStart, setView]);
  const base = useQuery({ ...flameQuery(q), enabled: timeReady, placeholderData: keepPreviousData });
  const zoomed = useZoomedTree(q, view.zoom, timeReady);
  const tree = zoomed.data?.tree ?? base.data?.root;
  const meta = base.data;
  const unit = meta?.unit ?? 'samples';
  const qc = useQueryClient();

  const search = view.search;
  const matched = useMemo(() => {
    if (!tree || !search.trim()) return null;
    const value = matchedValue(tree, literalMatcher(search));
    return { value, fraction: share(value, tree.value) };
  }, [tree, search]);

  useShortcuts(FLAME_SHORTCUTS, {
    reset: () => {
      if (view.zoom.length === 0 && !view.search) return false;
      setView({ zoom: [], search: '' }, view.zoom.length > 0);
    },
  });
  const loading = base.isFetching || zoomed.isFetching;
  const charted = tree !== undefined && meta !== undefined && tree.value > 0;
  const timing = useViewTiming({ data: base.data, zoomKey: pathKey(view.zoom), search, charted, loading });

  /** A zoom starts loading its pruned detail at the click, so the request overlaps the redraw. */
  const zoomTo = (path: string[]) => {
    timing.beginZoom();
    if (timeReady) prefetchZoomedTree(qc, q, path);
    setView({ zoom: path }, true);
  };

  const grafted = zoomed.data?.grafted ?? [];
  const loadingDetail = zoomed.isFetching && view.zoom.length > 0 && base.isSuccess && !base.isFetching;

  return (
    <div className="stack flame-page">
      <ViewTabs image={chartSvg} imageName={`flame-${view.incident !== null ? `incident-${view.incident}` : `captures-${view.captures.join('-')}`}`} />
      <Breadcrumbs incident={view.incident} trail={[{ label: `${SOURCE_WORDS[view.source].graph} of ${named}` }]} />

      <SelectionChips selection={view} onClear={(patch) => setView(patch)} />

      {warnings.map((w) => (
        <div key={w} className="banner banner--info">
          {w}
        </div>
      ))}

      <FlameFilters
        view={view}
        facets={facets.data}
        currentEvent={meta?.event ?? ''}
        states={meta?.events ?? []}
        onChange={(p) => setView(p)}
      />
      {facets.isError ? <ErrorBanner title="Could not load filter values." error={facets.error} /> : null}

      <FlameToolbar
        search={view.search}
        onSearch={(term) => setView({ search: term })}
        matched={matched}
        unit={unit}
        zoomed={view.zoom.length > 0}
        onReset={() => setView({ zoom: [], search: '' }, view.zoom.length > 0)}
        foldedHref={foldedUrl(q)}
        foldedName={foldedFileName(q, meta?.event ?? view.event ?? '')}
        profileHref={(format) => flameExportUrl(q, format)}
      />

      <div className="flame-status small">
        {meta ? (
          <>
            <span data-testid="flame-summary">
              {offcpu ? (
                <>
                  <strong>blocked time{view.state ? ` in state ${view.state}` : ''}</strong> · {formatValue(meta.total, unit)} ·{' '}
                  {formatCount(meta.total_samples)} off-CPU intervals
                </>
              ) : stated ? (
                <>
                  <strong>kernel stacks{view.state ? ` in state ${view.state}` : ''}</strong> · {formatCount(meta.total_samples)} stack
                  dumps
                </>
              ) : (
                <>
                  <strong>{meta.event || 'all events'}</strong> · {formatValue(meta.total, unit)}
                  {unit !== 'samples' ? ` · ${formatCount(meta.total_samples)} samples` : ''}
                </>
              )}{' '}
              · {formatCount(meta.node_count)} frames
            </span>
            {meta.pruned_nodes > meta.deep_nodes ? (
              <span className="prune-note" data-testid="prune-note">
                {formatCount(meta.pruned_nodes - meta.deep_nodes)} frames below {formatPercent(meta.prune_threshold)} folded into (other)
                — zoom in to load them
              </span>
            ) : null}
            {meta.deep_nodes > 0 ? (
              <span className="prune-note" data-testid="deep-note">
                {formatCount(meta.deep_nodes)} frames deeper than {formatCount(meta.max_depth)} levels folded into (deeper) — click one
                to load the next levels
              </span>
            ) : null}
            {grafted.length > 0 ? (
              <span className="muted">full detail loaded under {grafted.at(-1)?.at(-1) ?? ''}</span>
            ) : null}
          </>
        ) : null}
        {timing.latest && !loading ? (
          <span className="muted" data-testid="flame-timing" title="From data arriving, a click or a search to the chart drawn">
            {timing.latest.kind} {formatDurationNs(timing.latest.ms * 1e6)}
          </span>
        ) : null}
        {base.isFetching || loadingDetail ? (
          <span className="muted live-dot">{loadingDetail ? 'loading detail for the zoomed frame…' : 'loading…'}</span>
        ) : null}
      </div>

      {base.isError ? <ErrorBanner title="Could not load the flame graph." error={base.error} onRetry={() => void base.refetch()} /> : null}
      {zoomed.isError && !base.isError ? (
        <ErrorBanner title="Could not load detail for the zoomed frame." error={zoomed.error} onRetry={() => void zoomed.refetch()} />
      ) : null}

      <ZoomCrumbs
        zoom={view.zoom}
        present={tree ? deepestExisting(tree, view.zoom).length : view.zoom.length}
        onZoom={zoomTo}
      />

      {tree && meta ? (
        charted ? (
          <FlameChart
            tree={tree}
            unit={unit}
            search={search}
            zoom={view.zoom}
            loading={loading}
            onZoom={zoomTo}
            onSettled={timing.settled}
          />
        ) : (
          <EmptyState title={SOURCE_WORDS[view.source].none}>
            {offcpu ? (
              <p className="muted small">
                Off-CPU flame graphs come from scheduler traces (<code>perf sched record</code> then <code>perf script</code>).
              </p>
            ) : null}
            <OffCpuHint view={view} />
            <button
              type="button"
              className="btn"
              onClick={() => setView({ pid: null, tid: null, comm: null, fromUs: null, toUs: null, within: null, state: null })}
            >
              Clear filters
            </button>
          </EmptyState>
        )
      ) : base.isPending ? (
        <div className="flame-placeholder muted">Loading flame graph…</div>
      ) : null}

      <div className="flame-foot">
        <FlameLegend />
        <span className="muted small">Click a frame to zoom · hover for details · Back zooms out</span>
      </div>
    </div>
  );
}
