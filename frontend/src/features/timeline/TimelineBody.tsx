/**
 * The timeline once its tracks are listed: toolbar, track picker, status line, annotation forms and
 * the chart. What it shows comes from `useTimelineData`, what input does from `useTimelineControls`
 * and `useAnnotationState`; this component only renders.
 */
import { useRef } from 'react';
import { Link, type useSearchParams } from 'react-router';
import { chromeTraceUrl } from '../../api/endpoints';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import type { Selection } from '../../shared/selection';
import { formatDurationNs } from '../../shared/units';
import { usePermissions } from '../auth/usePermissions';
import { WindowFindings } from '../findings/WindowFindings';
import type { Annotation, TrackListing } from './api';
import { AnnotationDetail, NewAnnotationForm } from './AnnotationPanel';
import { useElementWidth } from './hooks';
import { TimelineChart } from './TimelineChart';
import { formatInstant } from './timeScale';
import { MoreMetrics } from './MoreMetrics';
import { TrackPicker } from './TrackPicker';
import type { CpuSplit } from './urlState';
import { useAnnotationState } from './useAnnotationState';
import { useTimelineControls } from './useTimelineControls';
import { useTimelineData } from './useTimelineData';

export function TimelineBody({
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
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const can = usePermissions();
  const notes = useAnnotationState();
  const { infos, missing, more, range, plotWidth, query, response, rows, dataKey, timing, onDrawn, announce } = useTimelineData({
    listing,
    selection,
    trackParam,
    split,
    width,
  });
  const controls = useTimelineControls({
    range,
    setParams,
    announce,
    canAnnotate: can.canRespond,
    toggleAnnotating: notes.toggleAnnotating,
    cancelAnnotating: notes.cancel,
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
        <button type="button" className="btn btn--small" onClick={controls.zoomIn} title="Zoom in (+)" aria-keyshortcuts="+">
          Zoom in
        </button>
        <button type="button" className="btn btn--small" onClick={controls.zoomOut} title="Zoom out (-)" aria-keyshortcuts="-">
          Zoom out
        </button>
        <button type="button" className="btn btn--small" onClick={controls.earlier} title="Earlier ([)" aria-keyshortcuts="[">
          ◀ Earlier
        </button>
        <button type="button" className="btn btn--small" onClick={controls.later} title="Later (])" aria-keyshortcuts="]">
          Later ▶
        </button>
        <button
          type="button"
          className="btn btn--small"
          onClick={controls.reset}
          disabled={selection.fromUs === null && selection.toUs === null}
          title="Whole incident (0)"
          aria-keyshortcuts="0"
        >
          Reset
        </button>
        <button
          type="button"
          className={`btn btn--small${notes.annotating ? ' btn--primary' : ''}`}
          aria-pressed={notes.annotating}
          onClick={notes.toggleAnnotating}
          disabled={!can.canRespond}
          title={can.whyNot('respond') ?? 'Click a time on the chart to pin a note (a)'}
          aria-keyshortcuts="a"
        >
          {notes.annotating ? 'Click a time…' : 'Annotate'}
        </button>
        <label className="small tl-split">
          CPU by{' '}
          <select value={split} onChange={(e) => controls.setSplit(e.currentTarget.value === 'thread' ? 'thread' : 'process')}>
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

      <TrackPicker listing={listing} chosen={infos.map((t) => t.id)} onChange={controls.setTracks} onDefaults={() => controls.setTracks(null)} />
      {more && more.hidden.length > 0 ? <MoreMetrics shown={infos} more={more} onShow={controls.setTracks} /> : null}

      {missing.length > 0 ? (
        <div className="banner banner--info">
          {missing.length} track{missing.length === 1 ? '' : 's'} in this link {missing.length === 1 ? 'is' : 'are'} not in this selection (a capture
          re-parsed, deleted or filtered out): {missing.join(', ')}
        </div>
      ) : null}
      {query.isError ? <ErrorBanner title="Could not load the timeline." error={query.error} onRetry={() => void query.refetch()} /> : null}

      <div className="tl-status small" data-testid="timeline-status">
        {response ? (
          <>
            <span>
              buckets of <strong>{formatDurationNs(response.grid.width_us * 1000)}</strong> · {response.grid.count} buckets
            </span>
            <span className="muted">server {Math.round(response.query_ms)} ms · read from {sources || 'nothing'}</span>
          </>
        ) : null}
        {timing && !query.isFetching ? (
          <span className="muted" data-testid="timeline-timing" title="From data arriving, or a brush or zoom, to the tracks drawn">
            {timing.kind} {Math.round(timing.ms)} ms
          </span>
        ) : null}
        {query.isFetching ? <span className="muted live-dot">loading…</span> : null}
      </div>

      {notes.newAt !== null ? (
        <NewAnnotationForm key={notes.newAt} incident={incident} atUs={notes.newAt} hosts={hostsWithTracks} onDone={notes.finishNew} />
      ) : null}
      {notes.selectedNote ? <AnnotationDetail key={notes.selectedNote.id} annotation={notes.selectedNote} onClose={notes.closeNote} /> : null}

      <div ref={box} className="tl-box">
        {infos.length === 0 ? (
          <EmptyState title="No tracks chosen">
            <button type="button" className="btn" onClick={() => controls.setTracks(null)}>
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
            annotating={notes.annotating}
            dataKey={dataKey}
            onBrush={controls.brush}
            onZoom={controls.wheelZoom}
            onPickTime={notes.pickTime}
            onSelectAnnotation={notes.selectNote}
            onDrawn={onDrawn}
          />
        ) : null}
        {query.isPending && infos.length > 0 ? <div className="muted">Loading tracks’ data…</div> : null}
      </div>
      <p className="muted small">
        Drag across the chart to select a range (every view follows) · ctrl+wheel or + / − to zoom · [ ] to move · 0 for the whole
        incident · a to annotate. Off-CPU intervals that never closed are counted in the track list, never drawn with an invented length.
      </p>
    </>
  );
}
