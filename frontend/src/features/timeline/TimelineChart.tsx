/**
 * The timeline chart: a D3 time axis (UTC above, local time below), one canvas per track, and one
 * overlay for the crosshair, brushing, ctrl+wheel zoom and annotation pins. The only component here
 * that touches d3 or a canvas; everything it shows is computed by the pure modules beside it.
 */
import { isCaptureClock } from '../../shared/captureClock';
import * as d3 from 'd3';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { afterNextPaint } from '../../shared/timing';
import { formatNumber, hoverLines, stateName, type HoverLine } from './hover';
import type { Annotation, Grid, HostTracks, TrackData, TrackInfo } from './api';
import { drawTrack, processColor, stateColor, trackExtent, type Extent } from './draw';
import { canvasHeight, HOST_ROW_HEIGHT, LABEL_WIDTH, rowHeight } from './layout';
import { brushRange, formatInstant, localZoneName, scaleFor, timeTicks, type TimeRange } from './timeScale';
import { placeTip, type Point } from './tipPlacement';
import { epochUsFromIso } from '../../shared/selection';
import { formatDurationNs } from '../../shared/units';

const AXIS_HEIGHT = 46;
const PIN_HEIGHT = 22;
const BRUSH_MIN_PX = 4;

export type Row =
  | { kind: 'host'; host: HostTracks }
  | { kind: 'track'; info: TrackInfo; data: TrackData | undefined };

interface Props {
  rows: Row[];
  range: TimeRange;
  grid: Grid | null;
  plotWidth: number;
  annotations: Annotation[];
  annotating: boolean;
  /** Identifies the data being drawn, handed back through onDrawn. */
  dataKey: string;
  onBrush: (range: TimeRange) => void;
  onZoom: (centerUs: number, factor: number) => void;
  onPickTime: (us: number) => void;
  onSelectAnnotation: (annotation: Annotation) => void;
  onDrawn: (at: number, dataKey: string) => void;
}

export function TimelineChart(props: Props) {
  const { rows, range, grid, plotWidth, annotations, annotating, dataKey } = props;
  const scale = useMemo(() => scaleFor(range, plotWidth), [range, plotWidth]);
  const canvases = useRef(new Map<string, HTMLCanvasElement>());
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const extents = useMemo(() => {
    const out = new Map<string, Extent>();
    if (!grid) return out;
    for (const row of rows) if (row.kind === 'track' && row.data) out.set(row.info.id, trackExtent(row.data, grid));
    return out;
  }, [rows, grid]);

  // Draw every track, then report when the browser has painted it.
  useLayoutEffect(() => {
    if (plotWidth <= 0) return;
    const ratio = window.devicePixelRatio || 1;
    for (const row of rows) {
      if (row.kind !== 'track') continue;
      const canvas = canvases.current.get(row.info.id);
      if (!canvas) continue;
      const height = canvasHeight(row.info);
      if (canvas.width !== Math.round(plotWidth * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(plotWidth * ratio);
        canvas.height = Math.round(height * ratio);
      }
      const ctx = canvas.getContext('2d');
      if (!ctx) continue;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, plotWidth, height);
      const extent = extents.get(row.info.id);
      if (!grid || !row.data || !extent) continue;
      drawTrack({ ctx, width: plotWidth, height, scale, grid, extent }, row.data);
    }
    return afterNextPaint((at) => latest.current.onDrawn(at, dataKey));
  }, [rows, grid, scale, plotWidth, extents, dataKey]);

  /** Where the pointer is: x in the plot for the time read, and in the viewport for the readout. */
  const [hover, setHover] = useState<{ px: number; pointer: Point } | null>(null);
  const [brush, setBrush] = useState<{ from: number; to: number } | null>(null);
  const overlay = useRef<HTMLDivElement>(null);

  // ctrl+wheel zooms around the cursor; a plain wheel still scrolls the page.
  useEffect(() => {
    const el = overlay.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const px = e.clientX - el.getBoundingClientRect().left;
      latest.current.onZoom(scaleFor(latest.current.range, latest.current.plotWidth).us(px), Math.exp(e.deltaY * 0.002));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const pxOf = (e: ReactPointerEvent<HTMLDivElement>): number => {
    const rect = e.currentTarget.getBoundingClientRect();
    return Math.max(0, Math.min(plotWidth, e.clientX - rect.left));
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const px = pxOf(e);
    if (annotating) {
      props.onPickTime(Math.round(scale.us(px)));
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    setBrush({ from: px, to: px });
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const px = pxOf(e);
    setHover({ px, pointer: { x: e.clientX, y: e.clientY } });
    if (brush) setBrush({ from: brush.from, to: px });
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!brush) return;
    const px = pxOf(e);
    setBrush(null);
    if (Math.abs(px - brush.from) >= BRUSH_MIN_PX) props.onBrush(brushRange(scale, brush.from, px));
  };

  const hoverUs = hover !== null ? scale.us(hover.px) : null;
  const totalHeight = rows.reduce((h, r) => h + (r.kind === 'host' ? HOST_ROW_HEIGHT : rowHeight(r.info)), 0);
  const visibleNotes = annotations
    .map((a) => ({ a, us: epochUsFromIso(a.ts) }))
    .filter((n): n is { a: Annotation; us: number } => n.us !== null && n.us >= range.fromUs && n.us <= range.toUs);

  return (
    <div className="tl-chart" data-testid="timeline-chart" style={{ gridTemplateColumns: `${LABEL_WIDTH}px ${plotWidth}px` }}>
      <div className="tl-corner small muted">
        {isCaptureClock(range.toUs) ? (
          <div title="No anchor, wall-clock column or start puts these captures on the wall clock">capture clock</div>
        ) : (
          <>
            <div>UTC</div>
            <div>local ({localZoneName(range.fromUs)})</div>
          </>
        )}
      </div>
      <div className="tl-axis-cell">
        <TimeAxis range={range} width={plotWidth} />
        <div className="tl-pins" style={{ height: PIN_HEIGHT }}>
          {visibleNotes.map(({ a, us }) => (
            <button
              key={a.id}
              type="button"
              className="tl-pin"
              style={{ left: scale.x(us) }}
              title={`${a.text}\n${formatInstant(us, 'utc')}${a.host ? ` · ${a.host}` : ''}`}
              data-testid="annotation-pin"
              onClick={() => props.onSelectAnnotation(a)}
            >
              {a.text}
            </button>
          ))}
        </div>
      </div>

      <div className="tl-labels">
        {rows.map((row) =>
          row.kind === 'host' ? (
            <div key={`host:${row.host.host}`} className="tl-host" data-testid="timeline-host">
              <strong>{row.host.host || '(no host)'}</strong>
              {row.host.unaligned ? (
                <span
                  className="clock-badge clock-badge--unaligned"
                  title="A capture of this host is on its own clock (seconds since boot: no clock anchor, wall-clock column or start). Set its start on the incident page, or upload the host’s clock anchors, to compare it with the others."
                >
                  unaligned
                </span>
              ) : null}
            </div>
          ) : (
            <TrackLabel key={row.info.id} info={row.info} data={row.data} extent={extents.get(row.info.id)} />
          ),
        )}
      </div>

      <div className="tl-plot" style={{ height: totalHeight }}>
        {rows.map((row) =>
          row.kind === 'host' ? (
            <div key={`host:${row.host.host}`} className="tl-host-band" />
          ) : (
            <canvas
              key={row.info.id}
              className="tl-canvas"
              data-track={row.info.id}
              data-testid="timeline-track"
              style={{ width: plotWidth, height: canvasHeight(row.info) }}
              ref={(el) => {
                if (el) canvases.current.set(row.info.id, el);
                else canvases.current.delete(row.info.id);
              }}
            />
          ),
        )}
        <div
          ref={overlay}
          className={`tl-overlay${annotating ? ' tl-overlay--annotating' : ''}`}
          data-testid="timeline-overlay"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => {
            if (!brush) setHover(null);
          }}
        >
          {visibleNotes.map(({ a, us }) => (
            <div key={a.id} className="tl-note-line" style={{ left: scale.x(us) }} />
          ))}
          {brush ? (
            <div
              className="tl-brush"
              data-testid="timeline-brush"
              style={{ left: Math.min(brush.from, brush.to), width: Math.abs(brush.to - brush.from) }}
            />
          ) : null}
          {hover !== null ? <div className="tl-crosshair" style={{ left: hover.px }} /> : null}
        </div>
        {hover !== null && hoverUs !== null && grid && !brush ? (
          <HoverTip rows={rows} grid={grid} us={hoverUs} pointer={hover.pointer} toleranceUs={4 / scale.pxPerUs} />
        ) : null}
      </div>
    </div>
  );
}

/** The time axis: d3 axes on a µs-linear scale, tick values and labels from timeScale.ts. */
function TimeAxis({ range, width }: { range: TimeRange; width: number }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const svgEl = ref.current;
    if (!svgEl || width <= 0) return;
    const ticks = timeTicks(range, width);
    const x = d3.scaleLinear().domain([range.fromUs, range.toUs]).range([0, width]);
    const utc = new Map(ticks.map((t) => [t.us, t.utc]));
    const local = new Map(ticks.map((t) => [t.us, t.local]));
    const svg = d3.select(svgEl);
    svg.selectAll('*').remove();
    svg
      .append('g')
      .attr('class', 'tl-axis tl-axis--utc')
      .attr('transform', 'translate(0,18)')
      .call(
        d3
          .axisTop(x)
          .tickValues(ticks.map((t) => t.us))
          .tickFormat((v) => utc.get(Number(v)) ?? '')
          .tickSizeOuter(0),
      );
    svg
      .append('g')
      .attr('class', 'tl-axis tl-axis--local')
      .attr('transform', 'translate(0,22)')
      .call(
        d3
          .axisBottom(x)
          .tickValues(ticks.map((t) => t.us))
          .tickFormat((v) => local.get(Number(v)) ?? '')
          .tickSizeOuter(0),
      );
  }, [range, width]);
  return <svg ref={ref} className="tl-axis-svg" width={width} height={AXIS_HEIGHT} role="img" aria-label="Time axis, UTC and local time" />;
}

function scaleText(info: TrackInfo, extent: Extent | undefined): string {
  if (!extent) return '';
  switch (info.type) {
    case 'cpu':
      return `peak ${formatNumber(extent.hi)} samples/s`;
    case 'offcpu':
      return `peak ${formatNumber(extent.hi)} threads`;
    case 'events':
      return `${formatDurationNs(extent.lo)} – ${formatDurationNs(extent.hi)} (log)`;
    case 'metric':
      return `${formatNumber(extent.lo)} – ${formatNumber(extent.hi)}${info.unit ? ` ${info.unit}` : ''}`;
  }
}

function isEmpty(data: TrackData): boolean {
  switch (data.type) {
    case 'cpu':
      return data.groups.every((g) => g.total === 0);
    case 'offcpu':
      return data.states.every((s) => s.total_ns === 0);
    case 'events':
    case 'metric':
      return data.count === 0;
  }
}

function TrackLabel({ info, data, extent }: { info: TrackInfo; data: TrackData | undefined; extent: Extent | undefined }) {
  const legend: { name: string; color: string }[] = [];
  if (data?.type === 'cpu') {
    for (const g of data.groups.slice(0, 4)) legend.push({ name: g.other ? 'other' : g.comm, color: processColor(g.comm, g.other) });
  } else if (data?.type === 'offcpu') {
    for (const s of data.states) legend.push({ name: s.state, color: stateColor(s.state) });
  }
  const sourceNote = data ? `${data.source}${data.type === 'events' ? ` · ${data.mode}` : ''}` : '';
  const empty = data !== undefined && isEmpty(data);
  return (
    <div className="tl-label" style={{ height: rowHeight(info) }} data-testid="timeline-label" title={`${info.label}\n${info.id}${sourceNote ? `\nread from ${sourceNote}` : ''}`}>
      <div className="tl-label__name one-line">{info.label}</div>
      <div className="tl-label__scale small muted one-line">{empty ? 'nothing in this range' : scaleText(info, extent)}</div>
      {legend.length > 0 ? (
        <div className="tl-legend small">
          {legend.map((l) => (
            <span key={l.name} className="tl-legend__item" title={info.type === 'offcpu' ? stateName(l.name) : l.name}>
              <span className="tl-swatch" style={{ background: l.color }} />
              {l.name}
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** One column for a few tracks, two or three for many, so fewer of them are cut off at the window's height. */
function tipColumns(sections: number): string {
  if (sections > 24) return ' tl-tip--wide tl-tip--widest';
  return sections > 8 ? ' tl-tip--wide' : '';
}

/** Every track's value at the pointer's time, beside the pointer and inside the viewport (tipPlacement.ts). */
function HoverTip({ rows, grid, us, pointer, toleranceUs }: { rows: Row[]; grid: Grid; us: number; pointer: Point; toleranceUs: number }) {
  const ref = useRef<HTMLDivElement>(null);
  // Placed once its size is known, before the browser paints: its content changes with every move.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Measured at the viewport's corner: where it last stood may have narrowed its shrink-to-fit width.
    el.style.left = '0px';
    el.style.top = '0px';
    el.style.maxHeight = '';
    const viewport = { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight };
    const place = placeTip(pointer, { width: el.offsetWidth, height: el.offsetHeight }, viewport);
    el.style.left = `${place.left}px`;
    el.style.top = `${place.top}px`;
    if (place.maxHeight !== null) el.style.maxHeight = `${place.maxHeight}px`;
  });
  const sections: { id: string; title: string; lines: HoverLine[] }[] = [];
  let host = '';
  for (const row of rows) {
    if (row.kind === 'host') {
      host = row.host.host || '(no host)';
      continue;
    }
    if (!row.data) continue;
    const unit = row.info.type === 'metric' ? row.info.unit : null;
    sections.push({ id: row.info.id, title: `${host} · ${row.info.label}`, lines: hoverLines(row.data, grid, us, toleranceUs, unit) });
  }
  return (
    <div ref={ref} className={`tl-tip${tipColumns(sections.length)}`} data-testid="timeline-tooltip" role="status">
      <div className="tl-tip__time mono">{formatInstant(us, 'utc')}</div>
      <div className="tl-tip__time mono muted">{formatInstant(us, 'local')}</div>
      {sections.map((s) => (
        <div key={s.id} className="tl-tip__section">
          <div className="tl-tip__title">{s.title}</div>
          {s.lines.length === 0 ? <div className="muted small">outside this track's data</div> : null}
          {s.lines.map((l, i) => (
            <div key={i} className="tl-tip__line small">
              <span className="muted">{l.label}</span> <span className="mono">{l.value}</span>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
