/** How evidence figures and links are shown. Pure. */
import { formatBytes, formatCount, formatDurationNs, formatPercent } from '../../shared/units';

/** A figure in the evidence's unit, e.g. the baseline's: `share` 0.012 → "1.20%". */
export function formatFigure(value: number, unit: string | null): string {
  switch (unit) {
    case 'share':
      return formatPercent(value);
    case 'percent':
      return formatPercent(value / 100);
    case 'ns':
      return formatDurationNs(value);
    case 'count':
      return formatCount(value);
    case 'per_s':
      return `${formatCount(value)}/s`;
    case 'bytes':
      return formatBytes(value);
    default:
      return String(Number(value.toPrecision(4)));
  }
}

/**
 * A view link only when it is a path of this console (`/flame?…`): the links come from the server,
 * and a link elsewhere (`//host`, `https:`) must not pass for one of the console's views.
 */
export function consolePath(view: string | null): string | null {
  if (view === null || !view.startsWith('/') || view.startsWith('//')) return null;
  return view;
}

/** Only web links for the references: anything else is shown as text. */
export function isWebLink(ref: string): boolean {
  return /^https?:\/\//i.test(ref);
}
