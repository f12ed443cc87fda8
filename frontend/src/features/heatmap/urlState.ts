/**
 * The heatmap's own URL keys — `stream`, `name`, `state`, `rows`, `value` — beside the shared
 * selection (shared/selection.ts), which it reads and writes but never redefines.
 */
import { STREAMS, VALUE_KINDS, type HeatmapStream, type ValueKind } from './api';

export const ROW_CHOICES = [10, 20, 50, 100] as const;
export const DEFAULT_ROWS = 50;
export const HEATMAP_KEYS = ['stream', 'name', 'state', 'rows', 'value'] as const;

export interface HeatmapView {
  /** null = the busiest stream of the captures. */
  stream: HeatmapStream | null;
  /** Samples: the perf event (null = busiest); other event streams: one name such as futex. */
  name: string | null;
  /** Off-CPU only: one scheduler state (null = all). */
  state: string | null;
  rows: number;
  value: ValueKind;
}

export const DEFAULT_VIEW: HeatmapView = { stream: null, name: null, state: null, rows: DEFAULT_ROWS, value: 'count' };

/** Rows must split a second into whole microseconds, as the server requires. */
export const validRows = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 1000 && 1_000_000 % n === 0;

export function readHeatmapView(input: URLSearchParams | string): { view: HeatmapView; warnings: string[] } {
  const p = new URLSearchParams(input);
  const warnings: string[] = [];
  const rawStream = p.get('stream');
  let stream: HeatmapStream | null = null;
  if (rawStream) {
    const known = STREAMS.find((s) => s === rawStream);
    if (known) stream = known;
    else warnings.push(`Ignored stream="${rawStream}": expected one of ${STREAMS.join(', ')}.`);
  }
  const rawRows = p.get('rows');
  let rows = DEFAULT_ROWS;
  if (rawRows) {
    const n = Number(rawRows);
    if (validRows(n)) rows = n;
    else warnings.push(`Ignored rows="${rawRows}": rows must split a second into whole microseconds (10, 20, 50, 100…).`);
  }
  const rawValue = p.get('value');
  let value: ValueKind = 'count';
  if (rawValue) {
    const known = VALUE_KINDS.find((v) => v === rawValue);
    if (known) value = known;
    else warnings.push(`Ignored value="${rawValue}": expected count or duration.`);
  }
  return {
    view: { stream, name: p.get('name') || null, state: p.get('state') || null, rows, value },
    warnings,
  };
}

/** `patch` applied to the heatmap keys of `current`; every other key (the shared selection) untouched. */
export function patchHeatmapView(current: URLSearchParams | string, patch: Partial<HeatmapView>): URLSearchParams {
  const p = new URLSearchParams(current);
  const view = { ...readHeatmapView(p).view, ...patch };
  for (const key of HEATMAP_KEYS) p.delete(key);
  if (view.stream) p.set('stream', view.stream);
  if (view.name) p.set('name', view.name);
  if (view.state && view.stream === 'off-cpu') p.set('state', view.state);
  if (view.rows !== DEFAULT_ROWS) p.set('rows', String(view.rows));
  if (view.value !== 'count') p.set('value', view.value);
  return p;
}
