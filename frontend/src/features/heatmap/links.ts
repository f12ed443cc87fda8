/**
 * Where a cell selection goes next: a flame graph of exactly those slices, or a diff of those cells
 * (B) against the rest of the same seconds (A, the same rows negated with `!`).
 */
import { formatWithin, isoFromEpochUs, writeSelection, type Selection } from '../../shared/selection';
import type { HeatmapStream } from './api';

/** The selection a link carries: the cells, on the captures actually drawn. */
export interface CellsLink {
  selection: Selection;
  /** The captures the heatmap shows (explicit, even when the URL leaves them implicit). */
  captures: number[];
  stream: HeatmapStream;
  /** Samples: the perf event drawn; off-CPU: the scheduler state; null = none chosen. */
  event: string | null;
  state: string | null;
}

/** Flame graphs read CPU samples or off-CPU intervals; the other streams' cells show CPU samples. */
const flameSource = (stream: HeatmapStream): 'off-cpu' | null => (stream === 'off-cpu' ? 'off-cpu' : null);

export function flameHref(link: CellsLink): string {
  const p = writeSelection(new URLSearchParams(), { ...link.selection, captures: link.captures });
  if (flameSource(link.stream) === 'off-cpu') {
    p.set('source', 'off-cpu');
    if (link.state) p.set('state', link.state);
  } else if (link.stream === 'samples' && link.event) {
    p.set('event', link.event);
  }
  return `/flame?${p.toString()}`;
}

/**
 * B = the selected cells, A = the rest of the same seconds (`!within`). Null without a row window:
 * cells covering whole seconds have no "rest" to compare with.
 */
export function diffHref(link: CellsLink): string | null {
  const { selection: s, captures } = link;
  if (s.within === null || s.fromUs === null || s.toUs === null) return null;
  const p = new URLSearchParams();
  if (s.incident !== null) p.set('incident', String(s.incident));
  const rest = { ...s.within, outside: !s.within.outside };
  for (const [side, within] of [
    ['b', s.within],
    ['a', rest],
  ] as const) {
    p.set(`${side}.captures`, captures.join(','));
    p.set(`${side}.from`, isoFromEpochUs(s.fromUs));
    p.set(`${side}.to`, isoFromEpochUs(s.toUs));
    p.set(`${side}.within`, formatWithin(within));
  }
  const source = flameSource(link.stream);
  if (source) p.set('source', source);
  if (source === 'off-cpu' && link.state) p.set('state', link.state);
  if (link.stream === 'samples' && link.event) p.set('event', link.event);
  return `/diff?${p.toString()}`;
}
