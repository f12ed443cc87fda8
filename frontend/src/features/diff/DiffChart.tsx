/**
 * One side of a diff drawn by d3-flame-graph, coloured by change. The chart's life and layout are
 * the flame view's (features/flame/useFlameGraph.ts: zoom views, stable ids, the frame budget);
 * what differs is the colour of each frame, the outline of frames only on this side, and the
 * tooltip.
 */
import { select } from 'd3';
import type { FlameFrame, FlameTooltip } from 'd3-flame-graph';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { literalMatcher } from '../../shared/regex';
import { afterNextPaint, measure } from '../../shared/timing';
import { sourceNode, type ChartNode } from '../flame/frames';
import { HIGHLIGHT_COLOR } from '../flame/palette';
import { createTooltip } from '../flame/tooltip';
import { showRoot, useChartWidth } from '../flame/chartKit';
import { pathKey } from '../flame/tree';
import { drawFlame, needsLayout, useFlameGraph, type FlameHandle } from '../flame/useFlameGraph';
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

interface Handle extends FlameHandle<DiffNode> {
  /** The side, largest change and search the frames were painted for. */
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
  const latest = useRef({ onZoom, onSettled, totals });
  const width = useChartWidth(wrapRef);

  useLayoutEffect(() => {
    latest.current = { onZoom, onSettled, totals };
  });

  const handleRef = useFlameGraph<DiffNode, Handle>(chartRef, {
    tooltip: () => createDiffTooltip(() => latest.current.totals),
    extend: (base): Handle => ({ ...base, paint: '', matches: () => false, side: 'b', largest: 0 }),
    fill,
    onZoom: (path) => latest.current.onZoom(path),
  });

  const zoomKey = pathKey(zoom);
  useEffect(() => {
    const h = handleRef.current;
    if (!h || width <= 0) return;
    const start = performance.now();
    const relayout = needsLayout(h, tree, zoomKey);
    const resize = h.width !== width;
    const paint = `${side}|${largest}|${search}`;
    let drawn = true;
    h.side = side;
    h.largest = largest;
    h.matches = literalMatcher(search);
    if (relayout || resize) {
      drawFlame(h, tree, zoomKey, width);
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
  }, [handleRef, tree, width, search, zoomKey, side, largest]);

  return (
    <div ref={wrapRef} className="flame-chart diff-chart">
      <div ref={chartRef} className="flame-chart__canvas" data-testid={`diff-chart-${side}`} aria-label={label} role="group" />
    </div>
  );
}
