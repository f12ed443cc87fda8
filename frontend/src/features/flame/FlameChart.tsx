/**
 * The only place d3 touches the DOM. Owns one d3-flame-graph instance: created on mount, fed with
 * `chart.update`, destroyed on unmount. Props are the view; clicks report the zoomed path upward.
 */
import { select } from 'd3';
import flamegraph, { type FlameFrame, type FlameGraph } from 'd3-flame-graph';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FlameNode } from '../../api/types';
import { literalMatcher } from '../../shared/regex';
import { frameColor } from './palette';
import { createFlameTooltip } from './tooltip';
import { findFrame, framePath } from './frames';
import { cloneTree, pathKey } from './tree';

export interface FlameChartProps {
  tree: FlameNode;
  unit: string;
  search: string;
  zoom: string[];
  onZoom: (path: string[]) => void;
}

const CELL_HEIGHT = 20;

interface ChartHandle {
  chart: FlameGraph<FlameNode>;
  el: HTMLDivElement;
  rendered: boolean;
  tree: FlameNode | null;
  width: number;
  search: string;
  zoomKey: string;
  /** Set while we zoom from code, so the click handler does not echo it back as a user action. */
  programmatic: boolean;
}

function layoutRoot(el: HTMLDivElement): FlameFrame<FlameNode> | null {
  const datum: unknown = select(el).datum();
  return datum && typeof datum === 'object' && 'ancestors' in datum ? (datum as FlameFrame<FlameNode>) : null;
}

function applyZoom(h: ChartHandle, zoom: readonly string[]): void {
  const root = layoutRoot(h.el);
  if (!root) return;
  // d3-flame-graph keeps hide/fade flags from earlier zooms; a zoom from code must start clean.
  root.each((d) => {
    const flags = d.data as FlameNode & { hide?: boolean; fade?: boolean };
    flags.hide = false;
    flags.fade = false;
  });
  h.programmatic = true;
  try {
    h.chart.zoomTo(findFrame(root, zoom));
  } finally {
    h.programmatic = false;
  }
}

/** Flame graphs grow upward: keep the root and the widest frames in view, depth above it. */
function showRoot(wrap: HTMLDivElement | null): void {
  if (wrap) wrap.scrollTop = wrap.scrollHeight;
}

function applySearch(h: ChartHandle, search: string): void {
  if (search.trim()) h.chart.search(search);
  else h.chart.clear();
}

export function FlameChart({ tree, unit, search, zoom, onZoom }: FlameChartProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<ChartHandle | null>(null);
  const latest = useRef({ onZoom, unit });
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    latest.current = { onZoom, unit };
  });

  // Track the available width; the chart is redrawn, not scaled, so labels stay crisp.
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
  }, []);

  // Create and destroy the chart with the component.
  useEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    let matcherTerm = '';
    let matcher = literalMatcher('');
    const chart = flamegraph<FlameNode>()
      .cellHeight(CELL_HEIGHT)
      .minFrameSize(1)
      .transitionDuration(0)
      .resetHeightOnZoom(true)
      .sort(false)
      .tooltip(createFlameTooltip(() => latest.current.unit))
      .setColorMapper((d) => frameColor(d.data.kind, d.data.name, d.highlight === true))
      .setSearchMatch((d, term) => {
        if (term !== matcherTerm) {
          matcherTerm = term;
          matcher = literalMatcher(term);
        }
        return d.depth > 0 && matcher(d.data.name);
      })
      .setSearchHandler(() => undefined)
      .setDetailsHandler(() => undefined)
      .onClick((d) => {
        const h = handleRef.current;
        if (!h || h.programmatic) return;
        const path = framePath(d);
        h.zoomKey = pathKey(path);
        latest.current.onZoom(path);
      });
    const handle: ChartHandle = {
      chart,
      el,
      rendered: false,
      tree: null,
      width: 0,
      search: '',
      zoomKey: pathKey([]),
      programmatic: false,
    };
    handleRef.current = handle;
    return () => {
      chart.destroy();
      select(el).datum(null);
      handleRef.current = null;
    };
  }, []);

  // Bring the chart in line with the props, doing only the work that changed.
  const zoomKey = pathKey(zoom);
  useEffect(() => {
    const h = handleRef.current;
    if (!h || width <= 0) return;
    const zoomPath = JSON.parse(zoomKey) as string[];
    if (!h.rendered || h.tree !== tree || h.width !== width) {
      h.chart.width(width);
      if (!h.rendered) {
        select(h.el).datum(cloneTree(tree)).call(h.chart);
        h.rendered = true;
      } else if (h.tree !== tree) {
        h.chart.update(cloneTree(tree));
      } else {
        h.chart.update();
      }
      h.tree = tree;
      h.width = width;
      h.search = search;
      h.zoomKey = zoomKey;
      if (search.trim()) applySearch(h, search);
      if (zoomPath.length > 0) applyZoom(h, zoomPath);
      showRoot(wrapRef.current);
      return;
    }
    if (h.search !== search) {
      h.search = search;
      applySearch(h, search);
    }
    if (h.zoomKey !== zoomKey) {
      h.zoomKey = zoomKey;
      applyZoom(h, zoomPath);
      showRoot(wrapRef.current);
    }
  }, [tree, width, search, zoomKey]);

  return (
    <div ref={wrapRef} className="flame-chart">
      <div ref={chartRef} className="flame-chart__canvas" data-testid="flame-chart" />
    </div>
  );
}
