/** What the findings panel says above (or instead of) the findings. Pure. */
import type { FindingsReport } from './api';

export interface PanelStatus {
  /** The empty state's title, when there is nothing to list. */
  title: string | null;
  /** A line shown while something is still changing (parsing, computing). */
  live: string | null;
  /** Whether the panel should ask again soon. */
  poll: boolean;
}

/** The wording of "computed, nothing matched": the server's own note when it gives one. */
export function noMatchText(report: FindingsReport): string {
  return report.notes.find((n) => /^no known pattern/i.test(n)) ?? 'No known pattern matched these captures.';
}

export function panelStatus(report: FindingsReport | undefined, captureCount: number, parsing: number): PanelStatus {
  const pending = Math.max(parsing, report?.captures_pending ?? 0);
  const live =
    pending > 0
      ? `${pending === 1 ? '1 capture' : `${pending} captures`} still parsing: findings will be computed when ${pending === 1 ? 'it is' : 'they are'} done`
      : report?.state === 'computing'
        ? 'Computing findings…'
        : null;
  const poll = pending > 0 || report?.state === 'computing';
  if (captureCount === 0) return { title: 'No captures yet: findings appear once captures are uploaded and parsed', live: null, poll };
  if (!report || report.findings.length > 0) return { title: null, live, poll };
  if (pending > 0) return { title: 'Waiting for the captures to be parsed', live, poll };
  if (report.state === 'computing') return { title: 'Computing findings…', live: null, poll };
  if (report.state === 'none') return { title: 'No findings computed yet', live, poll };
  return { title: noMatchText(report), live, poll };
}

/** The poll period of the findings query: every 2 s while they may change, else not at all. */
export const findingsPollMs = (report: FindingsReport | undefined): number | false =>
  report && (report.state === 'computing' || report.captures_pending > 0) ? 2000 : false;
