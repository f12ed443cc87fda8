/** Pure helpers about capture lifecycle and display. */
import type { Capture } from '../../api/types';
import { formatBytes, formatDurationSeconds, spanSeconds } from '../../shared/units';

export const isActive = (c: Capture): boolean => c.status === 'queued' || c.status === 'parsing';
export const isReady = (c: Capture): boolean => c.status === 'ready' || c.status === 'partial';

/** Poll every second while the server is still working on any capture, otherwise stop. */
export const pollInterval = (captures: readonly Capture[] | undefined): number | false =>
  captures?.some(isActive) ? 1000 : false;

export function statusText(c: Capture): string {
  switch (c.status) {
    case 'queued':
      return 'queued';
    case 'parsing':
      return `parsing ${Math.floor(Math.min(1, Math.max(0, c.progress)) * 100)}%`;
    case 'ready':
      return 'ready';
    case 'partial':
      return 'partial';
    case 'empty':
      return 'empty';
    case 'failed':
      return 'failed';
  }
}

/** What an `empty` capture's row says under its status. */
export const EMPTY_NOTE = 'The file is empty (no bytes, or only blank lines): nothing to show.';

export function sizeText(c: Capture): string {
  const stored = formatBytes(c.size_bytes);
  if (c.compression !== 'none' && c.size_uncompressed !== null) {
    return `${stored} ${c.compression} → ${formatBytes(c.size_uncompressed)}`;
  }
  return c.compression !== 'none' ? `${stored} ${c.compression}` : stored;
}

export function spanText(c: Capture): string {
  const s = spanSeconds(c.time_start, c.time_end);
  return s === null ? '–' : formatDurationSeconds(s);
}

/** Problems to flag on a row: dropped lines, parser warnings, truncated input. */
export function issueCount(c: Capture): number {
  return c.warnings.length + (c.dropped_lines > 0 ? 1 : 0) + (c.truncated ? 1 : 0);
}
