/**
 * What the window findings panel says: which spans were compared, whether the answer still belongs
 * to the selection on screen, and the empty state. Pure.
 */
import { captureClockText, isCaptureClock } from '../../shared/captureClock';
import type { EpochUs, Selection } from '../../shared/selection';
import { formatClock } from '../timeline/timeScale';
import type { WindowFindings, WindowRequest, WindowSide, WindowSpan } from './windowApi';

/** The request for the selection on screen, or null when it has no time range to ask about. */
export function windowRequest(incident: number, selection: Selection, side: WindowSide): WindowRequest | null {
  if (selection.fromUs === null || selection.toUs === null || selection.toUs <= selection.fromUs) return null;
  return { incident, fromUs: selection.fromUs, toUs: selection.toUs, hosts: [...selection.hosts], side };
}

const sameHosts = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * Why an answer no longer fits what is selected now (null when it still does): a brush, zoom or
 * pan after asking must not leave the old window's findings standing for the new range.
 */
export function staleReason(asked: WindowRequest, now: WindowRequest | null): string | null {
  if (now === null || asked.incident !== now.incident || asked.fromUs !== now.fromUs || asked.toUs !== now.toUs) {
    return 'The window moved: ask again.';
  }
  if (!sameHosts(asked.hosts, now.hosts)) return 'The hosts changed: ask again.';
  if (asked.side !== now.side) return 'The comparison changed: ask again.';
  return null;
}

/** Digits enough to tell the spans' ends apart: seconds for long spans, ms, µs for very short ones. */
function stepFor(spans: readonly WindowSpan[]): number {
  const shortest = Math.min(...spans.map((s) => s.endUs - s.startUs));
  if (shortest >= 60e6) return 1e6;
  if (shortest >= 10e3) return 1e3;
  return 1;
}

/** The timeline's own readout of an instant: UTC wall clock, or seconds on a capture's own clock. */
function clock(us: EpochUs, stepUs: number): string {
  return isCaptureClock(us) ? captureClockText(us, stepUs) : formatClock(us, stepUs, 'utc');
}

const spanText = (s: WindowSpan, stepUs: number): string => `${clock(s.startUs, stepUs)} → ${clock(s.endUs, stepUs)}`;

/**
 * "08:03:10.200 → 08:03:12.000 against 08:00:00.000 → 08:03:10.200 (the time before, UTC)": the
 * spans the server compared, which may differ from those asked (narrowed to the captures' data, or
 * the other side when nothing comes before or after the window).
 */
export function comparedText(answer: WindowFindings): string {
  const { window, baseline } = answer;
  const step = stepFor(baseline ? [window, baseline] : [window]);
  const zone = isCaptureClock(window.startUs) ? 'capture clock' : 'UTC';
  if (!baseline) return `${spanText(window, step)} (${zone}) against nothing: the window covers all the captures’ time`;
  return `${spanText(window, step)} against ${spanText(baseline, step)} (the time ${baseline.side}, ${zone})`;
}

/** "9 detectors ran on …" → 9, from the first note that says it; null when none does. */
export function detectorsRan(notes: readonly string[]): number | null {
  for (const n of notes) {
    const m = /(\d+) detectors? ran/.exec(n);
    if (m?.[1]) return Number(m[1]);
  }
  return null;
}

/** The empty state's title; the count of detectors when it is known. */
export function noPatternText(detectors: number | null): string {
  if (detectors === null) return 'No known pattern in this window';
  return `No known pattern in this window (${detectors} ${detectors === 1 ? 'detector' : 'detectors'} ran)`;
}
