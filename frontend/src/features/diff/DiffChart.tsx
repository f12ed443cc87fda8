/**
 * One side of a diff drawn by d3-flame-graph, coloured by change. Same set-up as the flame view's
 * chart (features/flame/FlameChart.tsx) and the same pure helpers (frames.ts: zoom views, stable
 * ids, the frame budget); what differs is the colour of each frame, the outline of frames only on
 * this side, and the tooltip. D3 touches the DOM here only.
 */
import { select } from 'd3';
import type { FlameFrame, FlameGraph, FlameTooltip } from 'd3-flame-graph';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { literalMatcher } from '../../shared/regex';
import { afterNextPaint, measure } from '../../shared/timing';
import { frameHierarchy, FrameIds, minFrameWidth, sourceNode, zoomView, type ChartNode } from '../flame/frames';
import { HIGHLIGHT_COLOR } from '../flame/palette';
import { createTooltip } from '../flame/tooltip';
import { newFlameGraph, PLACEHOLDER, showRoot, useChartWidth, zoomOnClick } from '../flame/chartKit';
import { settleFrameWidths } from '../flame/settleFrames';
import { pathKey } from '../flame/tree';
import type { DiffNode } from './api';
import { diffColor, OUTLINE, outlined } from './colors';
import { diffTooltip, isDiffNode, type DiffTotals } from './view';

export interface DiffChartProps {
  /** The side's tree (see view.ts sideTree). */
  tree: DiffNode;
  side: 'a' | 'b';
  /** The largest change shown, for colour intensity. */
  largest: number;
  totals: DiffTotals;
  search: string;
  zoom: string[];
  onZoom: (path: string[]) => void;
  /** Drawn and painted; `at` is a performance.now() time. */
  onSettled?: (at: number) => void;
  label: string;
}

/** Frames in the DOM at most, as in the flame view. */
const FRAME_BUDGET = 2500;

interface Handle {
  chart: FlameGraph<ChartNode>;
  tooltip: FlameTooltip<ChartNode>;
  el: HTMLDivElement;
  ids: FrameIds;
  started: boolean;
  tree: DiffNode | null;
  zoomKey: string;
  view: ChartNode;
  width: number;
  paint: string;
  matches: (name: string) => boolean;
  side: 'a' | 'b';
  largest: number;
}

function fill(h: Handle, d: FlameFrame<ChartNode>): string {
  const node = sourceNode(d.data);
  if (d.depth > 0 && h.matches(node.name)) return HIGHLIGHT_COLOR;
  return isDiffNode(node) ? diffColor(node, h.side, h.largest) : 'gray';
}

/**
 * Colours and outlines of the frames on screen; d3-flame-graph only ever sets the fill. Outlines
 * are inline styles: the page's stylesheet gives every frame a stroke, which would win over an
 * attribute.
 */
function paintFrames(h: Handle): void {
  const rects = select(h.el).selectAll<SVGGElement, FlameFrame<ChartNode>>('g.frame').select<SVGRectElement>('rect');
  rects.attr('fill', (d) => fill(h, d));
  rects.style('stroke', (d) => {
    const node = sourceNode(d.data);
    return isDiffNode(node) && outlined(node, h.side) ? OUTLINE : null;
  });
  rects.style('stroke-width', (d) => {
    const node = sourceNode(d.data);
    return isDiffNode(node) && outlined(node, h.side) ? '1.5px' : null;
  });
}

/** The diff's tooltip: both sides and the change; `totals` is read on each show. */
function createDiffTooltip(totals: () => DiffTotals): FlameTooltip<ChartNode> {
  return createTooltip((d) => {
    const node = sourceNode(d.data);
    return isDiffNode(node) ? diffTooltip(node, totals()) : null;
  });
}

export function DiffChart({ tree, side, largest, totals, search, zoom, onZoom, onSettled, label }: DiffChartProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<Handle | null>(null);
  const latest = useRef({ onZoom, onSettled, totals });
  const width = useChartWidth(wrapRef);

  useLayoutEffect(() => {
    latest.current = { onZoom, onSettled, totals };
  });

  useEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    const tooltip = createDiffTooltip(() => latest.current.totals);
    const chart = newFlameGraph(tooltip);
    const handle: Handle = {
      chart,
      tooltip,
      el,
      ids: new FrameIds(),
      started: false,
      tree: null,
      zoomKey: pathKey([]),
      view: PLACEHOLDER,
      width: 0,
      paint: '',
      matches: () => false,
      side: 'b',
      largest: 0,
    };
    chart.setColorMapper((d) => fill(handle, d));
    const stopZooms = zoomOnClick(el, tooltip, (path) => latest.current.onZoom(path));
    handleRef.current = handle;
    return () => {
      stopZooms();
      chart.destroy();
      select(el).datum(null);
      handleRef.current = null;
    };
  }, []);

  const zoomKey = pathKey(zoom);
  useEffect(() => {
    const h = handleRef.current;
    if (!h || width <= 0) return;
    const start = performance.now();
    const relayout = !h.started || h.tree !== tree || h.zoomKey !== zoomKey;
    const resize = h.width !== width;
    const paint = `${side}|${largest}|${search}`;
    let drawn = true;
    h.side = side;
    h.largest = largest;
    h.matches = literalMatcher(search);
    if (relayout || resize) {
      h.chart.width(width);
      h.width = width;
      if (relayout) {
        if (!h.started) {
          select(h.el).datum(PLACEHOLDER).call(h.chart);
          h.started = true;
        }
        h.tree = tree;
        h.zoomKey = zoomKey;
        if (h.ids.size > 1_000_000) h.ids = new FrameIds();
        h.view = zoomView(tree, JSON.parse(zoomKey) as string[]);
        select(h.el).datum(frameHierarchy(h.view, h.ids));
        h.tooltip.hide();
      }
      h.chart.minFrameSize(minFrameWidth(h.view, width, FRAME_BUDGET)).update();
      settleFrameWidths(h.el);
      paintFrames(h);
    } else if (h.paint !== paint) paintFrames(h);
    else drawn = false;
    h.paint = paint;
    // Flame graphs grow upward: after a new layout, show the root and the widest frames.
    const scrolling = relayout ? requestAnimationFrame(() => showRoot(wrapRef.current)) : 0;
    const cancel = afterNextPaint((at) => {
      if (drawn) measure('diff:draw', start, at);
      latest.current.onSettled?.(at);
    });
    return () => {
      cancelAnimationFrame(scrolling);
      cancel();
    };
  }, [tree, width, search, zoomKey, side, largest]);

  return (
    <div ref={wrapRef} className="flame-chart diff-chart">
      <div ref={chartRef} className="flame-chart__canvas" data-testid={`diff-chart-${side}`} aria-label={label} role="group" />
    </div>
  );
}
