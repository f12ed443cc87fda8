import type { Severity } from '../../api/types';

const LABEL: Record<Severity, string> = { sev1: 'SEV1', sev2: 'SEV2', sev3: 'SEV3', sev4: 'SEV4' };

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`badge badge--${severity}`}>{LABEL[severity]}</span>;
}
