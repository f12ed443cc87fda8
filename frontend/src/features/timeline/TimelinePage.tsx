/**
 * The correlated timeline: every track of an incident on one wall-clock axis, grouped by host. The
 * range shown is the shared selection's `from`/`to`, so brushing and zooming here move every view.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { chromeTraceUrl } from '../../api/endpoints';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { timelineImage } from './snapshot';
import { currentSearch } from '../../shared/currentSearch';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcuts } from '../../shared/hooks/useShortcuts';
import { epochUsFromIso, readSelection, writeSelection, type Selection } from '../../shared/selection';
import { formatDurationNs } from '../../shared/units';
import { annotationsKey, getTracks, listAnnotations, type Annotation, type TimelineRequest, type TrackListing } from './api';
import { AnnotationDetail, NewAnnotationForm } from './AnnotationPanel';
import { useDebounced, useElementWidth } from './hooks';
import { LABEL_WIDTH } from './layout';
import { timelineQuery } from './queries';
import { TimelineChart, type Row } from './TimelineChart';
import { formatInstant, pan, zoomAround, type TimeRange } from './timeScale';
import { TimelineClock, type TimelineInteraction, type TimelineTiming } from './timing';
import { defaultTrackIds, orderedTracks, unknownTracks } from './trackDefaults';
import { TrackPicker } from './TrackPicker';
import { TIMELINE_SHORTCUTS } from './shortcuts';
import { usePermissions } from '../auth/usePermissions';
import { WindowFindings } from '../findings/WindowFindings';
import { decodeTimelineView, patchTimelineView, type CpuSplit } from './urlState';
import './timeline.css';

/** Responses already drawn once: shown again, they are timed from when they are shown. */
const drawnBefore = new WeakSet<object>();

const ZOOM_STEP = 0.5;
const PAN_STEP = 0.25;
const FETCH_DEBOUNCE_MS = 120;

export function TimelinePage() {
  const [params] = useSearchParams();
  const { selection, warnings } = useMemo(() => readSelection(params), [params]);
  useDocumentTitle(selection.incident !== null ? `Timeline · incident #${selection.incident}` : 'Timeline');
  if (selection.incident === null) {
    return (
      <>
        <ViewTabs />
        <EmptyState title="No incident selected">
          <p>
            The timeline shows one incident’s captures on a single time axis. <Link to="/">Choose an incident</Link> and open its
            timeline from there.
          </p>
        </EmptyState>
      </>
    );
  }
  return <TimelineView incident={selection.incident} selection={selection} warnings={warnings} />;
}

function TimelineView({ incident, selection, warnings }: { incident: number; selection: Selection; warnings: string[] }) {
  const [params, setParams] = useSearchParams();
  const { view, warnings: viewWarnings } = useMemo(() => decodeTimelineView(params), [params]);
  const scope = useMemo(() => ({ incident, captures: selection.captures, hosts: selection.hosts }), [incident, selection.captures, selection.hosts]);
  const listing = useQuery({
    queryKey: ['timeline-tracks', scope],
    queryFn: ({ signal }) => getTracks(scope, signal),
    staleTime: 15_000,
  });
  const annotations = useQuery({
    queryKey: annotationsKey(incident),
    queryFn: ({ signal }) => listAnnotations(incident, signal),
    staleTime: 15_000,
  });

  return (
    <div className="stack tl-page">
      <ViewTabs image={timelineImage} imageName={`timeline-incident-${incident}`} />
      <Breadcrumbs incident={incident} trail={[{ label: 'timeline' }]} />
      {[...warnings, ...viewWarnings].map((w) => (
        <div key={w} className="banner banner--info">
          {w}
        </div>
      ))}
      {listing.isError ? <ErrorBanner title="Could not load the incident’s tracks." error={listing.error} onRetry={() => void listing.refetch()} /> : null}
      {listing.isPending ? <div className="muted">Loading tracks…</div> : null}
      {listing.data ? (
        <TimelineBody
          listing={listing.data}
          selection={selection}
          trackParam={view.tracks}
          split={view.split}
          annotations={annotations.data ?? []}
          setParams={setParams}
        />
      ) : null}
      {annotations.isError ? <ErrorBanner title="Could not load annotations." error={annotations.error} /> : null}
    </div>
  );
}

function listingRange(listing: TrackListing): TimeRange | null {
  const from = listing.time_start ? epochUsFromIso(listing.time_start) : null;
  const to = listing.time_end ? epochUsFromIso(listing.time_end) : null;
  return from !== null && to !== null && to > from ? { fromUs: from, toUs: to } : null;
}

function TimelineBody({
  listing,
  selection,
  trackParam,
  split,
  annotations,
  setParams,
}: {
  listing: TrackListing;
  selection: Selection;
  trackParam: string[] | null;
  split: CpuSplit;
  annotations: Annotation[];
  setParams: ReturnType<typeof useSearchParams>[1];
}) {
  const incident = listing.incident;
  const chosen = useMemo(() => trackParam ?? defaultTrackIds(listing), [trackParam, listing]);
  const infos = useMemo(() => orderedTracks(listing, chosen), [listing, chosen]);
  const missing = useMemo(() => unknownTracks(listing, chosen), [listing, chosen]);
  const range = useMemo((): TimeRange | null => {
    if (selection.fromUs !== null && selection.toUs !== null) return { fromUs: selection.fromUs, toUs: selection.toUs };
    const full = listingRange(listing);
    if (!full) return null;
    const fromUs = selection.fromUs ?? full.fromUs;
    const toUs = selection.toUs ?? full.toUs;
    return toUs > fromUs ? { fromUs, toUs } : full;
  }, [selection.fromUs, selection.toUs, listing]);

  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const plotWidth = Math.max(200, width - LABEL_WIDTH - 2);

  const requestFor = useCallback(
    (r: TimeRange): TimelineRequest | null =>
      infos.length > 0
        ? {
            incident,
            captures: selection.captures,
            hosts: selection.hosts,
            tracks: infos.map((t) => t.id),
            startUs: r.fromUs,
            endUs: r.toUs,
            widthPx: plotWidth,
            pid: selection.pid,
            tid: selection.tid,
            comm: selection.comm,
            split,
          }
        : null,
    [incident, infos, selection.captures, selection.hosts, selection.pid, selection.tid, selection.comm, plotWidth, split],
  );
  const queryClient = useQueryClient();
  /**
   * Asks the server for a range as soon as a brush, key or button picks it. Going through the URL
   * first re-renders the whole page before the request leaves, which cost a brush about 100 ms on a
   * big incident; the page's query then finds this request in flight under the same key.
   */
  const fetchEarly = useRef<(next: TimeRange | null) => void>(() => undefined);
  useEffect(() => {
    fetchEarly.current = (next) => {
      const target = next ?? listingRange(listing);
      const early = target ? requestFor(target) : null;
      // A failure is the page query's to show, when it asks again under the same key.
      if (early) queryClient.query(timelineQuery(early)).catch(() => undefined);
    };
  }, [listing, requestFor, queryClient]);

  const clock = useRef(new TimelineClock());
  /** Only bursts of wheel zooms wait before fetching; a brush, key or button fetches at once. */
  const [debounceMs, setDebounceMs] = useState(0);
  const [timing, setTiming] = useState<TimelineTiming | null>(null);
  const [annotating, setAnnotating] = useState(false);
  const can = usePermissions();
  const [newAt, setNewAt] = useState<number | null>(null);
  const [selectedNote, setSelectedNote] = useState<Annotation | null>(null);

  /** The shown range is the selection's: written to the URL, where every view reads it. */
  const setRange = useCallback(
    (next: TimeRange | null, kind: TimelineInteraction, push: boolean, wheel = false) => {
      clock.current.begin(kind);
      setDebounceMs(wheel ? FETCH_DEBOUNCE_MS : 0);
      const rounded = next ? { fromUs: Math.round(next.fromUs), toUs: Math.round(next.toUs) } : null;
      if (!wheel) fetchEarly.current(rounded);
      const current = readSelection(currentSearch()).selection;
      const p = writeSelection(new URLSearchParams(currentSearch()), {
        ...current,
        fromUs: rounded?.fromUs ?? null,
        toUs: rounded?.toUs ?? null,
      });
      setParams(p, { replace: !push });
    },
    [setParams],
  );
  const setTracks = (ids: string[] | null) => setParams(patchTimelineView(currentSearch(), { tracks: ids }), { replace: true });

  const request = range ? requestFor(range) : null;
  const settledRequest = useDebounced(request, debounceMs);
  /** The range on screen; a brush or zoom is answered when data fetched for it is drawn. */
  const currentKey = request ? JSON.stringify(request) : '';
  const requestKey = settledRequest ? JSON.stringify(settledRequest) : '';
  const data = useQuery({
    ...timelineQuery(settledRequest),
    enabled: settledRequest !== null && width > 0,
    placeholderData: keepPreviousData,
  });
  const fresh = data.data !== undefined && !data.isPlaceholderData;

  // Fresh data starts a render wait (unless a brush or zoom is already waiting for it), timed from
  // its arrival; a response drawn before (back from another view, from the cache) from now.
  useEffect(() => {
    const d = data.data;
    if (!d || data.isPlaceholderData) return;
    clock.current.begin('render', drawnBefore.has(d) ? performance.now() : d.received);
    drawnBefore.add(d);
  }, [data.data, data.isPlaceholderData]);
  useEffect(() => {
    if (data.isError) clock.current.cancel();
  }, [data.isError]);

  const onDrawn = useCallback(
    (at: number, key: string) => {
      // Old data redrawn at the new scale (while the new range loads) answers nothing yet.
      if (!fresh || key !== currentKey || data.isFetching) return;
      const t = clock.current.settle(at);
      if (t) setTiming(t);
    },
    [fresh, currentKey, data.isFetching],
  );

  const response = data.data?.value;
  const byId = useMemo(() => new Map((response?.tracks ?? []).map((t) => [t.id, t])), [response]);
  const rows: Row[] = useMemo(() => {
    const out: Row[] = [];
    for (const host of listing.hosts) {
      const tracks = infos.filter((t) => t.host === host.host);
      if (tracks.length === 0) continue;
      out.push({ kind: 'host', host });
      for (const info of tracks) out.push({ kind: 'track', info, data: byId.get(info.id) });
    }
    return out;
  }, [listing.hosts, infos, byId]);

  const zoom = useCallback(
    (factor: number, centerUs?: number, wheel = false) => {
      if (!range) return;
      setRange(zoomAround(range, centerUs ?? (range.fromUs + range.toUs) / 2, factor), 'zoom', false, wheel);
    },
    [range, setRange],
  );

  // Keyboard (the keys and what they do: shortcuts.ts, also listed by the `?` help).
  useShortcuts(TIMELINE_SHORTCUTS, {
    zoomIn: () => zoom(ZOOM_STEP),
    zoomOut: () => zoom(1 / ZOOM_STEP),
    whole: () => setRange(null, 'zoom', true),
    earlier: () => (range ? setRange(pan(range, -PAN_STEP), 'zoom', false) : false),
    later: () => (range ? setRange(pan(range, PAN_STEP), 'zoom', false) : false),
    annotate: can.canRespond ? () => setAnnotating((on) => !on) : null,
    cancel: () => {
      setAnnotating(false);
      setNewAt(null);
      setSelectedNote(null);
    },
  });

  if (!range) {
    return (
      <EmptyState title="Nothing to draw yet">
        <p>
          No capture of this incident has been parsed with times.{' '}
          <Link to={`/incidents/${incident}`}>Upload a capture on the incident page</Link> (perf script, a scheduler trace, perf
          trace, metrics CSV, the collector’s /proc sampler…) and come back.
        </p>
      </EmptyState>
    );
  }

  const sources = response ? [...new Set(response.tracks.map((t) => t.source))].join(', ') : '';
  const hostsWithTracks = listing.hosts.map((h) => h.host);

  return (
    <>
      <div className="tl-toolbar toolbar">
        <div className="tl-range small">
          <span className="mono">{formatInstant(range.fromUs, 'utc')}</span> → <span className="mono">{formatInstant(range.toUs, 'utc')}</span>{' '}
          <span className="muted">({formatDurationNs((range.toUs - range.fromUs) * 1000)})</span>
        </div>
        <div className="spacer" />
        <button type="button" className="btn btn--small" onClick={() => zoom(ZOOM_STEP)} title="Zoom in (+)" aria-keyshortcuts="+">
          Zoom in
        </button>
        <button type="button" className="btn btn--small" onClick={() => zoom(1 / ZOOM_STEP)} title="Zoom out (-)" aria-keyshortcuts="-">
          Zoom out
        </button>
        <button type="button" className="btn btn--small" onClick={() => setRange(pan(range, -PAN_STEP), 'zoom', false)} title="Earlier ([)" aria-keyshortcuts="[">
          ◀ Earlier
        </button>
        <button type="button" className="btn btn--small" onClick={() => setRange(pan(range, PAN_STEP), 'zoom', false)} title="Later (])" aria-keyshortcuts="]">
          Later ▶
        </button>
        <button
          type="button"
          className="btn btn--small"
          onClick={() => setRange(null, 'zoom', true)}
          disabled={selection.fromUs === null && selection.toUs === null}
          title="Whole incident (0)"
          aria-keyshortcuts="0"
        >
          Reset
        </button>
        <button
          type="button"
          className={`btn btn--small${annotating ? ' btn--primary' : ''}`}
          aria-pressed={annotating}
          onClick={() => setAnnotating((on) => !on)}
          disabled={!can.canRespond}
          title={can.whyNot('respond') ?? 'Click a time on the chart to pin a note (a)'}
          aria-keyshortcuts="a"
        >
          {annotating ? 'Click a time…' : 'Annotate'}
        </button>
        <label className="small tl-split">
          CPU by{' '}
          <select
            value={split}
            onChange={(e) => setParams(patchTimelineView(currentSearch(), { split: e.currentTarget.value === 'thread' ? 'thread' : 'process' }), { replace: true })}
          >
            <option value="process">process</option>
            <option value="thread">thread</option>
          </select>
        </label>
        <a
          className="btn btn--small"
          href={chromeTraceUrl({ incident, captures: selection.captures, hosts: selection.hosts, fromUs: range.fromUs, toUs: range.toUs })}
          download
          title="The shown range's samples and events as a Chrome trace, for Perfetto UI and chrome://tracing"
          data-testid="export-chrome-trace"
        >
          Chrome trace (Perfetto)
        </a>
      </div>

      <WindowFindings incident={incident} selection={selection} />

      <TrackPicker listing={listing} chosen={infos.map((t) => t.id)} onChange={(ids) => setTracks(ids)} onDefaults={() => setTracks(null)} />

      {missing.length > 0 ? (
        <div className="banner banner--info">
          {missing.length} track{missing.length === 1 ? '' : 's'} in this link {missing.length === 1 ? 'is' : 'are'} not in this selection (a capture
          re-parsed, deleted or filtered out): {missing.join(', ')}
        </div>
      ) : null}
      {data.isError ? <ErrorBanner title="Could not load the timeline." error={data.error} onRetry={() => void data.refetch()} /> : null}

      <div className="tl-status small" data-testid="timeline-status">
        {response ? (
          <>
            <span>
              buckets of <strong>{formatDurationNs(response.grid.width_us * 1000)}</strong> · {response.grid.count} buckets
            </span>
            <span className="muted">server {Math.round(response.query_ms)} ms · read from {sources || 'nothing'}</span>
          </>
        ) : null}
        {timing && !data.isFetching ? (
          <span className="muted" data-testid="timeline-timing" title="From data arriving, or a brush or zoom, to the tracks drawn">
            {timing.kind} {Math.round(timing.ms)} ms
          </span>
        ) : null}
        {data.isFetching ? <span className="muted live-dot">loading…</span> : null}
      </div>

      {newAt !== null ? (
        <NewAnnotationForm
          key={newAt}
          incident={incident}
          atUs={newAt}
          hosts={hostsWithTracks}
          onDone={() => {
            setNewAt(null);
            setAnnotating(false);
          }}
        />
      ) : null}
      {selectedNote ? <AnnotationDetail key={selectedNote.id} annotation={selectedNote} onClose={() => setSelectedNote(null)} /> : null}

      <div ref={box} className="tl-box">
        {infos.length === 0 ? (
          <EmptyState title="No tracks chosen">
            <button type="button" className="btn" onClick={() => setTracks(null)}>
              Show the default tracks
            </button>
          </EmptyState>
        ) : width > 0 ? (
          <TimelineChart
            rows={rows}
            range={range}
            grid={response?.grid ?? null}
            plotWidth={plotWidth}
            annotations={annotations}
            annotating={annotating}
            dataKey={data.isPlaceholderData ? '' : requestKey}
            onBrush={(r) => setRange(r, 'brush', true)}
            onZoom={(center, factor) => zoom(factor, center, true)}
            onPickTime={(us) => setNewAt(us)}
            onSelectAnnotation={(a) => setSelectedNote(a)}
            onDrawn={onDrawn}
          />
        ) : null}
        {data.isPending && infos.length > 0 ? <div className="muted">Loading tracks’ data…</div> : null}
      </div>
      <p className="muted small">
        Drag across the chart to select a range (every view follows) · ctrl+wheel or + / − to zoom · [ ] to move · 0 for the whole
        incident · a to annotate. Off-CPU intervals that never closed are counted in the track list, never drawn with an invented length.
      </p>
    </>
  );
}
