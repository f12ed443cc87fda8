import { Link } from 'react-router';
import type { Finding } from './api';
import { consolePath, formatFigure, isWebLink } from './evidence';
import { VerdictForm } from './VerdictForm';

/** Everything a reader needs to check a finding: the evidence with its views, what to check next, the fix. */
export function FindingDetail({
  incident,
  finding,
  onDismissed,
  verdicts = true,
}: {
  incident: number;
  finding: Finding;
  onDismissed: () => void;
  /** False for findings that are not stored (a time window's): no verdict form. */
  verdicts?: boolean;
}) {
  return (
    <div className="finding__detail" data-testid="finding-detail">
      {finding.evidence.length > 0 ? (
        <>
          <h4>Evidence</h4>
          <ul className="finding__evidence">
            {finding.evidence.map((e, i) => {
              const to = consolePath(e.view);
              return (
                <li key={i} data-testid="finding-evidence">
                  <span className="finding__evidence-label">{e.label}:</span> <span data-testid="finding-evidence-text">{e.text}</span>
                  {e.baseline !== null ? <span className="muted small"> · baseline {formatFigure(e.baseline, e.unit)}</span> : null}
                  {to ? (
                    <>
                      {' '}
                      <Link className="btn btn--small" to={to} data-testid="finding-evidence-open" aria-label={`Open the view of “${e.label}”`}>
                        Open
                      </Link>
                    </>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      {finding.baseline ? <p className="finding__baseline">{finding.baseline}</p> : null}
      {finding.next_checks.length > 0 ? (
        <>
          <h4>Next checks</h4>
          <ul>
            {finding.next_checks.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </>
      ) : null}
      {finding.remediation ? (
        <>
          <h4>Remediation</h4>
          <p>{finding.remediation}</p>
        </>
      ) : null}
      {finding.references.length > 0 ? (
        <ul className="finding__refs small">
          {finding.references.map((r) => (
            <li key={r}>
              {isWebLink(r) ? (
                <a href={r} target="_blank" rel="noopener noreferrer">
                  {r}
                </a>
              ) : (
                r
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {verdicts ? <VerdictForm incident={incident} finding={finding} onDismissed={onDismissed} /> : null}
    </div>
  );
}
