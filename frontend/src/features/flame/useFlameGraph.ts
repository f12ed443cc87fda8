/**
 * The life of one d3-flame-graph instance, shared by the flame view's chart and the diff's: created
 * on mount with the view's tooltip and colours, zooms routed upward, destroyed on unmount; and the
 * one way both lay out a tree, so the frame budget and element reuse cannot drift between them.
 */
import { select } from 'd3';
import type { FlameFrame, FlameGraph, FlameTooltip } from 'd3-flame-graph';
import { useEffect, useRef, type RefObject } from 'react';
import type { FlameNode } from '../../api/types';
import { newFlameGraph, PLACEHOLDER, zoomOnClick } from './chartKit';
import { frameHierarchy, FrameIds, minFrameWidth, zoomView, type ChartNode } from './frames';
import { settleFrameWidths } from './settleFrames';
import { pathKey } from './tree';

/** Frames in the DOM at most (see minFrameWidth); about 2k make a full-width view of a big profile. */
const FRAME_BUDGET = 2500;

/** Ids only serve to reuse elements; a fresh set after very many distinct frames bounds memory. */
const MAX_FRAME_IDS = 1_000_000;

/** A chart and what it has drawn, so an update redraws only what changed. */
export interface FlameHandle<T extends FlameNode> {
  chart: FlameGraph<ChartNode>;
  tooltip: FlameTooltip<ChartNode>;
  el: HTMLDivElement;
  ids: FrameIds;
  /** d3-flame-graph is started once with `chart(selection)`; every later draw is `update`. */
  started: boolean;
  tree: T | null;
  /** The drawn zoom as `pathKey` text. */
  zoomKey: string;
  view: ChartNode;
  width: number;
}

/** What a view brings to its chart. Read once, on mount: pass callbacks that read the view's latest props. */
export interface FlameGraphSetup<T extends FlameNode, H extends FlameHandle<T>> {
  tooltip: () => FlameTooltip<ChartNode>;
  /** The view's own drawn state beside the common one. */
  extend: (base: FlameHandle<T>) => H;
  fill: (h: H, d: FlameFrame<ChartNode>) => string;
  onZoom: (path: string[]) => void;
}

/** The chart mounted in `chartRef`'s element, or null before mount and after unmount. */
export function useFlameGraph<T extends FlameNode, H extends FlameHandle<T>>(
  chartRef: RefObject<HTMLDivElement | null>,
  setup: FlameGraphSetup<T, H>,
): RefObject<H | null> {
  const handleRef = useRef<H | null>(null);
  const setupRef = useRef(setup);

  useEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    const { tooltip: makeTooltip, extend, fill, onZoom } = setupRef.current;
    const tooltip = makeTooltip();
    const chart = newFlameGraph(tooltip);
    const handle = extend({
      chart,
      tooltip,
      el,
      ids: new FrameIds(),
      started: false,
      tree: null,
      zoomKey: pathKey([]),
      view: PLACEHOLDER,
      width: 0,
    });
    // Colours are computed for drawn frames only (a few thousand), so a search walks no tree here.
    chart.setColorMapper((d) => fill(handle, d));
    const stopZooms = zoomOnClick(el, tooltip, onZoom);
    handleRef.current = handle;
    return () => {
      stopZooms();
      chart.destroy();
      select(el).datum(null);
      handleRef.current = null;
    };
  }, [chartRef]);

  return handleRef;
}

/** A new tree or zoom must be laid out again; a new width or colour need not. */
export const needsLayout = <T extends FlameNode>(h: FlameHandle<T>, tree: T, zoomKey: string): boolean =>
  !h.started || h.tree !== tree || h.zoomKey !== zoomKey;

/**
 * Draw `tree` at `zoomKey` and `width`: laid out again when `needsLayout`, otherwise only redrawn at
 * the new width. Only frames wide enough for the budget enter the DOM.
 */
export function drawFlame<T extends FlameNode>(h: FlameHandle<T>, tree: T, zoomKey: string, width: number): void {
  const relayout = needsLayout(h, tree, zoomKey);
  h.chart.width(width);
  h.width = width;
  if (relayout) {
    if (!h.started) {
      select(h.el).datum(PLACEHOLDER).call(h.chart);
      h.started = true;
    }
    h.tree = tree;
    h.zoomKey = zoomKey;
    if (h.ids.size > MAX_FRAME_IDS) h.ids = new FrameIds();
    h.view = zoomView(tree, JSON.parse(zoomKey) as string[]);
    select(h.el).datum(frameHierarchy(h.view, h.ids));
    h.tooltip.hide();
  }
  h.chart.minFrameSize(minFrameWidth(h.view, width, FRAME_BUDGET)).update();
  settleFrameWidths(h.el);
}
