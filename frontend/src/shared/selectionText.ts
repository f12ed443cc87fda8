/** How a selection reads to a person: the range in UTC with its length, the within-second band. */
import { captureClockText, isCaptureClock } from './captureClock';
import { isoFromEpochUs, type Selection, type WithinSecond } from './selection';
import { formatDurationNs } from './units';

/** "08:00:01.250000 – 08:00:03.000000 UTC (1.75 s)", with the date when the ends differ in day. */
export function describeRange(fromUs: number | null, toUs: number | null): string | null {
  if (fromUs === null && toUs === null) return null;
  const length = fromUs !== null && toUs !== null ? ` (${formatDurationNs((toUs - fromUs) * 1000)})` : '';
  if (isCaptureClock(fromUs ?? toUs ?? 0) && isCaptureClock(toUs ?? fromUs ?? 0)) {
    const ownFrom = fromUs === null ? 'start' : captureClockText(fromUs);
    const ownTo = toUs === null ? 'end' : captureClockText(toUs);
    return `${ownFrom} – ${ownTo} on the capture clock${length}`;
  }
  const at = (us: number) => isoFromEpochUs(us).replace('T', ' ').replace('Z', '');
  const from = fromUs === null ? 'start' : at(fromUs);
  const to = toUs === null ? 'end' : at(toUs);
  const sameDay = fromUs !== null && toUs !== null && from.slice(0, 10) === to.slice(0, 10);
  return `${from} – ${sameDay ? to.slice(11) : to} UTC${length}`;
}

/** "0–20 ms of every second", or "outside 0–20 ms of every second". */
export function describeWithin(w: WithinSecond): string {
  const ms = (us: number) => String(us / 1000);
  return `${w.outside ? 'outside ' : ''}${ms(w.startUs)}–${ms(w.endUs)} ms of every second`;
}

export const hasNarrowing = (s: Selection): boolean => s.fromUs !== null || s.toUs !== null || s.within !== null;
