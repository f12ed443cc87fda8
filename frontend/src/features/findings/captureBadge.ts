/** What the captures table says about the findings a capture supports. Pure. */
import type { Finding, FindingSeverity } from './api';
import { isDismissed, mostSevere, orderFindings } from './ordering';

export interface CaptureFindings {
  count: number;
  severity: FindingSeverity;
  /** Titles, most severe first: the badge's tooltip. */
  titles: string[];
  text: string;
}

/** The findings (not dismissed) whose evidence comes from this capture; null when there are none. */
export function captureFindings(findings: readonly Finding[], captureId: number): CaptureFindings | null {
  const mine = orderFindings(findings.filter((f) => !isDismissed(f) && f.capture_ids.includes(captureId)));
  const severity = mostSevere(mine);
  if (severity === null) return null;
  return {
    count: mine.length,
    severity,
    titles: mine.map((f) => f.title),
    text: mine.length === 1 ? `1 finding · ${severity}` : `${mine.length} findings · ${severity}`,
  };
}
