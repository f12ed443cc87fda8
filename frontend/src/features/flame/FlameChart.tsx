/**
 * The only place d3 touches the DOM. Owns one d3-flame-graph instance: created on mount, fed with
 * `chart.update`, destroyed on unmount. Props are the view; clicks report the zoomed path upward.
 *
 * Each change is one draw: the view tree for the zoom (frames.ts) is laid out and drawn once, the
 * search only recolours. d3-flame-graph's own zoom and search are not used (see frames.ts).
 */
import { select } from 'd3';
import type { FlameFrame, FlameGraph, FlameTooltip } from 'd3-flame-graph';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { FlameNode } from '../../api/types';
import { literalMatcher } from '../../shared/regex';
import { afterNextPaint, measure } from '../../shared/timing';
import { frameHierarchy, FrameIds, minFrameWidth, zoomView, type ChartNode } from './frames';
import { frameColor } from './palette';
import { createFlameTooltip } from './tooltip';
import { newFlameGraph, PLACEHOLDER, showRoot, useChartWidth, zoomOnClick } from './chartKit';
import { settleFrameWidths } from './settleFrames';
import { pathKey } from './tree';

export interface FlameChartProps {
  tree: FlameNode;
  unit: string;
  search: string;
  zoom: string[];
  /** More of this view is on its way (a newer response, a zoomed frame's pruned detail). */
  loading: boolean;
  onZoom: (path: string[]) => void;
  /** The view is drawn and painted with nothing left loading; `at` is a performance.now() time. */
  onSettled?: (at: number) => void;
}


/** How long a new layout waits for loading detail before drawing without it (see the draw effect). */
const WAIT_FOR_DETAIL_MS = 150;

const MAX_FRAME_IDS = 1_000_000;

/** Frames in the DOM at most (see minFrameWidth); about 2k make a full-width view of a big profile. */
const FRAME_BUDGET = 2500;

/** d3-flame-graph must be started with `chart(selection)`, which lays out its datum; this one is empty. */

interface ChartHandle {
  chart: FlameGraph<ChartNode>;
  tooltip: FlameTooltip<ChartNode>;
  el: HTMLDivElement;
  ids: FrameIds;
  started: boolean;
  /** What is drawn now. */
  tree: FlameNode | null;
  view: ChartNode;
  zoomKey: string;
  width: number;
  search: string;
  matches: (name: string) => boolean;
}

function frameFill(h: ChartHandle, d: FlameFrame<ChartNode>): string {
  return frameColor(d.data.kind, d.data.name, d.depth > 0 && h.matches(d.data.name));
}

/**
 * A search changes colours only: recolour the frames on screen, the way d3-flame-graph's update
 * does (`g > rect` fill), without its full layout and redraw.
 */
function recolor(h: ChartHandle): void {
  select(h.el)
    .selectAll<SVGGElement, FlameFrame<ChartNode>>('g.frame')
    .select('rect')
    .attr('fill', (d) => frameFill(h, d));
}

const needsLayout = (h: ChartHandle, tree: FlameNode, zoomKey: string): boolean =>
  !h.started || h.tree !== tree || h.zoomKey !== zoomKey;

/**
 * Draw what changed: a new tree or zoom is laid out again (`layout`), a new width redrawn (`size`),
 * a new search only recoloured (`colours`).
 */
function sync(h: ChartHandle, tree: FlameNode, zoomKey: string, width: number, search: string): 'none' | 'colours' | 'size' | 'layout' {
  const relayout = needsLayout(h, tree, zoomKey);
  const resize = h.width !== width;
  if (h.search !== search) {
    h.search = search;
    h.matches = literalMatcher(search);
    if (!relayout && !resize) {
      recolor(h);
      return 'colours';
    }
  } else if (!relayout && !resize) return 'none';
  h.chart.width(width);
  h.width = width;
  if (relayout) {
    if (!h.started) {
      select(h.el).datum(PLACEHOLDER).call(h.chart);
      h.started = true;
    }
    h.tree = tree;
    h.zoomKey = zoomKey;
    // Ids only serve to reuse elements; a fresh set after very many distinct frames bounds memory.
    if (h.ids.size > MAX_FRAME_IDS) h.ids = new FrameIds();
    h.view = zoomView(tree, JSON.parse(zoomKey) as string[]);
    select(h.el).datum(frameHierarchy(h.view, h.ids));
    h.tooltip.hide();
  }
  h.chart.minFrameSize(minFrameWidth(h.view, width, FRAME_BUDGET)).update();
  settleFrameWidths(h.el);
  return relayout ? 'layout' : 'size';
}

export function FlameChart({ tree, unit, search, zoom, loading, onZoom, onSettled }: FlameChartProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<ChartHandle | null>(null);
  const latest = useRef({ onZoom, onSettled, unit });
  const width = useChartWidth(wrapRef);

  useLayoutEffect(() => {
    latest.current = { onZoom, onSettled, unit };
  });

  // Create and destroy the chart with the component.
  useEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    const tooltip = createFlameTooltip(() => latest.current.unit);
    const chart = newFlameGraph(tooltip);
    const handle: ChartHandle = {
      chart,
      tooltip,
      el,
      ids: new FrameIds(),
      started: false,
      tree: null,
      view: PLACEHOLDER,
      zoomKey: pathKey([]),
      width: 0,
      search: '',
      matches: () => false,
    };
    // Colours are computed for drawn frames only (a few thousand), so a search walks no tree here.
    chart.setColorMapper((d) => frameFill(handle, d));
    const stopZooms = zoomOnClick(el, tooltip, (path) => latest.current.onZoom(path));
    handleRef.current = handle;
    return () => {
      stopZooms();
      chart.destroy();
      select(el).datum(null);
      handleRef.current = null;
    };
  }, []);

  // Bring the chart in line with the props: at most one draw, and only if something drawn changed.
  const zoomKey = pathKey(zoom);
  useEffect(() => {
    const h = handleRef.current;
    if (!h || width <= 0) return;
    let scrolling = 0;
    let cancelSettle: () => void = () => undefined;
    const run = () => {
      const start = performance.now();
      const drawn = sync(h, tree, zoomKey, width, search);
      // Scrolled in the frame d3 finishes drawing in, so layout runs there only, not here as well.
      if (drawn === 'layout') scrolling = requestAnimationFrame(() => showRoot(wrapRef.current));
      cancelSettle = afterNextPaint((at) => {
        if (drawn !== 'none') measure('flame:draw', start, at);
        if (!loading) latest.current.onSettled?.(at);
      });
    };
    // A new layout while detail is loading (the click already sent the request) waits a moment for
    // it: a quick answer then costs one draw, not two. A slow one gets this draw first, overlapping
    // the wait, and the draw with the detail reuses its elements.
    const waiting = loading && needsLayout(h, tree, zoomKey) ? setTimeout(run, WAIT_FOR_DETAIL_MS) : undefined;
    if (waiting === undefined) run();
    return () => {
      clearTimeout(waiting);
      cancelAnimationFrame(scrolling);
      cancelSettle();
    };
  }, [tree, width, search, zoomKey, loading]);

  return (
    <div ref={wrapRef} className="flame-chart">
      <div ref={chartRef} className="flame-chart__canvas" data-testid="flame-chart" />
    </div>
  );
}
