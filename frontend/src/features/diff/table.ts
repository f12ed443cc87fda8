/** The function table's sorting and its words. Pure. */
import type { DiffFunction } from './api';

export const TABLE_SORTS = ['total', 'self', 'a', 'b'] as const;
/** total/self: the size of the change, either way; a/b: each side's total weight. */
export type TableSort = (typeof TABLE_SORTS)[number];

export interface TableOrder {
  by: TableSort;
  /** Largest first (the default), or smallest first. */
  descending: boolean;
}

export const DEFAULT_ORDER: TableOrder = { by: 'total', descending: true };

const key: Record<TableSort, (f: DiffFunction) => number> = {
  total: (f) => Math.abs(f.total_delta),
  self: (f) => Math.abs(f.self_delta),
  a: (f) => f.total_a,
  b: (f) => f.total_b,
};

/** Sorted copy; ties by the larger side, then by name, so the order never depends on the input's. */
export function sortFunctions(rows: readonly DiffFunction[], order: TableOrder): DiffFunction[] {
  const k = key[order.by];
  const sign = order.descending ? -1 : 1;
  return [...rows].sort(
    (x, y) =>
      sign * (k(x) - k(y)) ||
      Math.max(y.total_a, y.total_b) - Math.max(x.total_a, x.total_b) ||
      (x.name < y.name ? -1 : x.name > y.name ? 1 : 0),
  );
}

/** Clicking a column: sort by it largest first; clicking it again flips the direction. */
export const nextOrder = (current: TableOrder, by: TableSort): TableOrder =>
  current.by === by ? { by, descending: !current.descending } : { by, descending: true };

/** The change relative to A scaled: "+100%", "−50%", "new" (nothing in A), "gone" (nothing in B). */
export function relativeChange(a: number, b: number, scale: number): string {
  const base = a * scale;
  if (base === b) return '0%';
  if (a === 0) return 'new';
  if (b === 0) return 'gone';
  const pct = ((b - base) / base) * 100;
  const digits = Math.abs(pct) >= 100 ? 0 : 1;
  return `${pct > 0 ? '+' : '−'}${Math.abs(pct).toFixed(digits)}%`;
}
