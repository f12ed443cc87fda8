/**
 * What the flame chart and the diff chart share around d3-flame-graph: the same configuration, the
 * width they redraw at, zooms routed through the URL instead of d3's own, and the root kept in view.
 */
import { select } from 'd3';
import flamegraph, { type FlameFrame, type FlameGraph, type FlameTooltip } from 'd3-flame-graph';
import { useLayoutEffect, useState, type RefObject } from 'react';
import { framePath, type ChartNode } from './frames';
import './flameChart.css';

export const CELL_HEIGHT = 20;

/** Drawn before the first tree arrives, so d3-flame-graph has its elements to update. */
export const PLACEHOLDER: ChartNode = { name: '', value: 0, samples: 0, kind: 'root', children: [] };

/** d3-flame-graph as both charts use it: no transitions, no sorting, no details panel. */
export function newFlameGraph(tooltip: FlameTooltip<ChartNode>): FlameGraph<ChartNode> {
  return flamegraph<ChartNode>()
    .cellHeight(CELL_HEIGHT)
    .minFrameSize(1)
    .transitionDuration(0)
    .resetHeightOnZoom(true)
    .sort(false)
    .tooltip(tooltip)
    .setDetailsHandler(() => undefined);
}

/** The available width in whole pixels; the chart is redrawn, not scaled, so labels stay crisp. */
export function useChartWidth(wrapRef: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    setWidth(Math.floor(wrap.clientWidth));
    const ro = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0);
      setWidth((prev) => (Math.abs(prev - w) >= 2 ? w : prev));
    });
    ro.observe(wrap);
    return () => ro.disconnect();
  }, [wrapRef]);
  return width;
}

/**
 * A click zooms through the URL (Back zooms out, links carry it). Caught before it reaches the
 * frame, so d3-flame-graph's own zoom, which flags and redraws the whole tree, never runs.
 * A "(deeper)" frame is no frame of the profile: a click on it zooms to its parent, whose next
 * levels then load. Returns the listener's removal.
 */
export function zoomOnClick(el: HTMLElement, tooltip: FlameTooltip<ChartNode>, onZoom: (path: string[]) => void): () => void {
  const onClick = (event: MouseEvent) => {
    const frame = event.target instanceof Element ? event.target.closest('g.frame') : null;
    if (!frame || !el.contains(frame)) return;
    event.stopPropagation();
    tooltip.hide();
    const d = select<Element, FlameFrame<ChartNode>>(frame).datum();
    const path = framePath(d);
    onZoom(d.data.kind === 'deeper' && !d.data.skipped ? path.slice(0, -1) : path);
  };
  el.addEventListener('click', onClick, true);
  return () => el.removeEventListener('click', onClick, true);
}

/** Flame graphs grow upward: keep the root and the widest frames in view, depth above it. */
export function showRoot(wrap: HTMLDivElement | null): void {
  if (wrap) wrap.scrollTop = wrap.scrollHeight;
}
