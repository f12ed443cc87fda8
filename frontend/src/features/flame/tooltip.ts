/**
 * Our own tooltip for d3-flame-graph. Frame names come from untrusted captures, so everything is
 * written with textContent; nothing here ever parses markup.
 */
import type { FlameFrame, FlameTooltip } from 'd3-flame-graph';
import type { FlameNode } from '../../api/types';
import { formatCount, formatPercent, formatValue, share } from '../../shared/units';
import { sourceNode, type ChartNode } from './frames';
import { KIND_LABEL } from './palette';
import './flameChart.css';

export interface TooltipRow {
  label: string;
  value: string;
}

export interface TooltipContent {
  title: string;
  rows: TooltipRow[];
}

/** What to show for a frame: pure, so it can be tested without a DOM. */
export function tooltipContent(node: FlameNode, parent: FlameNode | null, root: FlameNode, unit: string): TooltipContent {
  const rows: TooltipRow[] = [
    { label: 'kind', value: KIND_LABEL[node.kind] },
    { label: unit === 'samples' ? 'samples' : unit === 'us' ? 'blocked time' : 'value', value: formatValue(node.value, unit) },
  ];
  if (unit !== 'samples') rows.push({ label: unit === 'us' ? 'intervals' : 'samples', value: formatCount(node.samples) });
  rows.push({ label: 'of total', value: formatPercent(share(node.value, root.value)) });
  if (parent) rows.push({ label: 'of parent', value: formatPercent(share(node.value, parent.value)) });
  const selfValue = node.value - node.children.reduce((s, c) => s + c.value, 0);
  if (node.children.length > 0 && selfValue > 0) rows.push({ label: 'self', value: formatValue(selfValue, unit) });
  if (node.kind === 'deeper') rows.push({ label: 'folded', value: `${formatCount(node.folded_frames ?? 0)} frames past the depth budget — click to load the next levels` });
  else if (node.truncated) rows.push({ label: 'detail', value: 'pruned — click to zoom and load it' });
  return { title: node.name, rows };
}

/** What a stand-in for many ancestors of the zoomed frame says: which frames it holds. */
export function skippedContent(skipped: readonly string[]): TooltipContent {
  return {
    title: `${formatCount(skipped.length)} frames above, not drawn one by one`,
    rows: [
      { label: 'outermost', value: skipped[0] ?? '' },
      { label: 'innermost', value: skipped.at(-1) ?? '' },
      { label: 'click', value: 'zoom to the innermost' },
    ],
  };
}

/** Fill an element with the content, as text only. */
export function renderTooltip(el: HTMLElement, content: TooltipContent): void {
  const doc = el.ownerDocument;
  el.replaceChildren();
  const title = doc.createElement('div');
  title.className = 'flame-tip__name';
  title.textContent = content.title;
  const table = doc.createElement('dl');
  table.className = 'flame-tip__rows';
  for (const row of content.rows) {
    const dt = doc.createElement('dt');
    dt.textContent = row.label;
    const dd = doc.createElement('dd');
    dd.textContent = row.value;
    table.append(dt, dd);
  }
  el.append(title, table);
}

function placeNear(el: HTMLElement, x: number, y: number): void {
  const view = el.ownerDocument.defaultView;
  const vw = view?.innerWidth ?? 1024;
  const vh = view?.innerHeight ?? 768;
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const gap = 14;
  const left = x + gap + w > vw ? Math.max(4, x - gap - w) : x + gap;
  const top = y + gap + h > vh ? Math.max(4, y - gap - h) : y + gap;
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
}

/**
 * A d3-flame-graph tooltip showing `content(frame)` (nothing when it gives null), as text only,
 * placed beside the pointer. The flame graph and the diff differ only in what they show.
 */
export function createTooltip(content: (d: FlameFrame<ChartNode>) => TooltipContent | null): FlameTooltip<ChartNode> {
  let el: HTMLDivElement | null = null;
  const create = () => {
    el = document.createElement('div');
    el.className = 'flame-tip';
    el.setAttribute('role', 'tooltip');
    el.hidden = true;
    document.body.append(el);
  };
  return Object.assign(create, {
    show: (event: MouseEvent, d: FlameFrame<ChartNode>) => {
      const shown = el ? content(d) : null;
      if (!el || !shown) return;
      renderTooltip(el, shown);
      el.hidden = false;
      placeNear(el, event.clientX, event.clientY);
    },
    hide: () => {
      if (el) el.hidden = true;
    },
    destroy: () => {
      el?.remove();
      el = null;
    },
  });
}

/** The flame graph's tooltip; `unit` is read on each show so it follows the current response. */
export function createFlameTooltip(unit: () => string): FlameTooltip<ChartNode> {
  return createTooltip((d) => {
    if (d.data.skipped) return skippedContent(d.data.skipped);
    const root = d.ancestors().at(-1) ?? d;
    const parent = d.parent ? sourceNode(d.parent.data) : null;
    return tooltipContent(sourceNode(d.data), parent, sourceNode(root.data), unit());
  });
}
