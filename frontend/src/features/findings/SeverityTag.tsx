import type { FindingSeverity } from './api';

/** A finding's severity as a coloured badge (critical red, warning amber, info blue). */
export function SeverityTag({ severity }: { severity: FindingSeverity }) {
  return (
    <span className={`badge finding-sev finding-sev--${severity}`} data-testid="finding-severity">
      {severity}
    </span>
  );
}
