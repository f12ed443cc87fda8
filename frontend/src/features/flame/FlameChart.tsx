/**
 * The flame view's chart. Its d3-flame-graph instance lives in useFlameGraph (shared with the diff's
 * chart); this component decides what to redraw. Props are the view; clicks report the zoomed path
 * upward.
 *
 * Each change is one draw: the view tree for the zoom (frames.ts) is laid out and drawn once, the
 * search only recolours. d3-flame-graph's own zoom and search are not used (see frames.ts).
 */
import { select } from 'd3';
import type { FlameFrame } from 'd3-flame-graph';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { FlameNode } from '../../api/types';
import { literalMatcher } from '../../shared/regex';
import { afterNextPaint, measure } from '../../shared/timing';
import { showRoot, useChartWidth } from './chartKit';
import type { ChartNode } from './frames';
import { frameColor } from './palette';
import { createFlameTooltip } from './tooltip';
import { pathKey } from './tree';
import { drawFlame, needsLayout, useFlameGraph, type FlameHandle } from './useFlameGraph';

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

interface ChartHandle extends FlameHandle<FlameNode> {
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
  drawFlame(h, tree, zoomKey, width);
  return relayout ? 'layout' : 'size';
}

export function FlameChart({ tree, unit, search, zoom, loading, onZoom, onSettled }: FlameChartProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<HTMLDivElement>(null);
  const latest = useRef({ onZoom, onSettled, unit });
  const width = useChartWidth(wrapRef);

  useLayoutEffect(() => {
    latest.current = { onZoom, onSettled, unit };
  });

  const handleRef = useFlameGraph(chartRef, {
    tooltip: () => createFlameTooltip(() => latest.current.unit),
    extend: (base): ChartHandle => ({ ...base, search: '', matches: () => false }),
    fill: frameFill,
    onZoom: (path) => latest.current.onZoom(path),
  });

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
  }, [handleRef, tree, width, search, zoomKey, loading]);

  return (
    <div ref={wrapRef} className="flame-chart">
      <div ref={chartRef} className="flame-chart__canvas" data-testid="flame-chart" />
    </div>
  );
}
