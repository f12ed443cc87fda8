import { useQuery } from '@tanstack/react-query';
import { captureFindings } from './captureBadge';
import { findingsQuery } from './queries';
import './findings.css';

/** In a capture's row: how many findings rest on this capture, coloured by the most severe; links to them. */
export function CaptureFindingsBadge({ incident, captureId }: { incident: number; captureId: number }) {
  // The panel above holds the same query: this reads its cache and adds no request of its own.
  const { data } = useQuery({ ...findingsQuery(incident), refetchInterval: false });
  const summary = data ? captureFindings(data.findings, captureId) : null;
  if (!summary) return null;
  return (
    <a
      href="#findings"
      className={`badge finding-sev finding-sev--${summary.severity} capture-findings`}
      title={`Findings from this capture: ${summary.titles.join('; ')}`}
      data-testid="capture-findings"
    >
      {summary.text}
    </a>
  );
}
