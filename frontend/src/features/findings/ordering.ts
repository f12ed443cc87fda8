/** The order findings are read in: most severe and most confident first, dismissed ones last. Pure. */
import type { Finding, FindingSeverity } from './api';

export const SEVERITY_RANK: Record<FindingSeverity, number> = { critical: 3, warning: 2, info: 1 };

export const isDismissed = (f: Finding): boolean => f.verdict?.verdict === 'dismissed';

/**
 * The server's order (severity, confidence, score, id) with dismissed findings moved under the
 * others: a dismissed finding stays listed so the decision can be revisited, but out of the way.
 */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      Number(isDismissed(a)) - Number(isDismissed(b)) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.confidence - a.confidence ||
      b.score - a.score ||
      a.id.localeCompare(b.id),
  );
}

/** The most severe of some findings; null when there are none. */
export function mostSevere(findings: readonly Finding[]): FindingSeverity | null {
  let best: FindingSeverity | null = null;
  for (const f of findings) if (best === null || SEVERITY_RANK[f.severity] > SEVERITY_RANK[best]) best = f.severity;
  return best;
}
