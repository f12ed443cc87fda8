/** From a diff response to what a chart draws and its tooltip says. Pure. */
import type { FlameNode } from '../../api/types';
import type { TooltipContent } from '../flame/tooltip';
import { KIND_LABEL } from '../flame/palette';
import { formatCount, formatPercent, formatValue, share } from '../../shared/units';
import type { DiffNode, Normalize } from './api';
import { onlyIn } from './colors';

/** Chart frames are FlameNodes; these are the ones that came from a diff. */
export const isDiffNode = (n: FlameNode): n is DiffNode => 'delta' in n && 'share_delta' in n;

/**
 * The tree drawn for a side: B's as sent (its `value` is B's weight), or a copy whose widths are A's,
 * so frames that vanished in B are drawn and new ones are not. Iterative: trees are deep.
 */
export function sideTree(root: DiffNode, side: 'a' | 'b'): DiffNode {
  if (side === 'b') return root;
  const copy = (n: DiffNode): DiffNode => ({ ...n, value: n.a, children: [] });
  const top = copy(root);
  const stack: [DiffNode, DiffNode][] = [[root, top]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [source, into] = item;
    for (const child of source.children) {
      if (child.a <= 0) continue;
      const c = copy(child);
      into.children.push(c);
      stack.push([child, c]);
    }
  }
  return top;
}

export interface DiffTotals {
  a: number;
  b: number;
  scale: number;
  normalize: Normalize;
  unit: string;
}

const signed = (value: number, unit: string): string =>
  value === 0 ? formatValue(0, unit) : `${value > 0 ? '+' : '−'}${formatValue(Math.abs(value), unit)}`;

/** Percentage points: "+12.5 pp". */
export const formatPoints = (fraction: number): string => {
  const pp = fraction * 100;
  if (Math.abs(pp) < 0.005) return '0 pp';
  return `${pp > 0 ? '+' : '−'}${Math.abs(pp) >= 10 ? Math.abs(pp).toFixed(1) : Math.abs(pp).toFixed(2)} pp`;
};

/** What the tooltip says about a frame: both weights with their shares, the change, and which side it is only on. */
export function diffTooltip(node: DiffNode, t: DiffTotals): TooltipContent {
  const only = onlyIn(node);
  const rows = [
    { label: 'kind', value: KIND_LABEL[node.kind] },
    { label: 'A (baseline)', value: `${formatValue(node.a, t.unit)} · ${formatPercent(share(node.a, t.a))} of A` },
    { label: 'B', value: `${formatValue(node.b, t.unit)} · ${formatPercent(share(node.b, t.b))} of B` },
    {
      label: 'change',
      value:
        t.normalize === 'total' && t.scale !== 1
          ? `${signed(node.delta, t.unit)} (A scaled ×${Number(t.scale.toPrecision(3))} to B's total)`
          : signed(node.delta, t.unit),
    },
    { label: 'share change', value: formatPoints(node.share_delta) },
  ];
  if (only === 'b') rows.push({ label: 'only in', value: 'B: new, not in the baseline' });
  if (only === 'a') rows.push({ label: 'only in', value: 'A: gone in B' });
  if (node.kind === 'deeper') {
    rows.push({ label: 'folded', value: `${formatCount(node.folded_frames ?? 0)} frames past the depth budget — click to load the next levels` });
  } else if (node.truncated) rows.push({ label: 'detail', value: 'frames below were folded into (other) or (deeper) — click to load them' });
  return { title: node.name, rows };
}
