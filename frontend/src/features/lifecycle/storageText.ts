/** The incident page's storage line: "Stores 1.2 GiB of uploads (300 MiB shared with other incidents), 12.3M rows". */
import { formatBytes, formatCount } from '../../shared/units';
import type { IncidentStorage } from './api';

/** 12_300_000 → "12.3M": a row count read at a glance (exact counts are in the title). */
export function compactCount(n: number): string {
  const abs = Math.abs(n);
  for (const [size, suffix] of [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ] as const) {
    if (abs >= size) {
      const v = n / size;
      return `${Number(v.toFixed(Math.abs(v) >= 100 ? 0 : 1))}${suffix}`;
    }
  }
  return formatCount(n);
}

export function totalRows(storage: Pick<IncidentStorage, 'rows'>): number {
  return Object.values(storage.rows).reduce((sum, n) => sum + n, 0);
}

export function storageText(storage: IncidentStorage): string {
  const rows = totalRows(storage);
  const shared = storage.shared_raw_bytes > 0 ? ` (${formatBytes(storage.shared_raw_bytes)} shared with other incidents)` : '';
  return `Stores ${formatBytes(storage.raw_bytes)} of uploads${shared}, ${compactCount(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}

/** "samples: 12,300,000 · syscalls: 4,100" for the hover title, largest first. */
export function rowsTitle(storage: Pick<IncidentStorage, 'rows' | 'trashed_captures'>): string {
  const parts = Object.entries(storage.rows)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([table, n]) => `${table}: ${formatCount(n)}`);
  if (storage.trashed_captures > 0) parts.push(`includes ${formatCount(storage.trashed_captures)} capture(s) in the trash`);
  return parts.join(' · ');
}
