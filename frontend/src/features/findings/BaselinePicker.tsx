import { useId } from 'react';
import { usePermissions } from '../auth/usePermissions';

interface Props {
  hosts: readonly string[];
  baseline: readonly string[];
  busy: boolean;
  onChange: (hosts: string[]) => void;
}

/** The host to compare with (a healthy one): findings then say how the incident's hosts differ from it. */
export function BaselinePicker({ hosts, baseline, busy, onChange }: Props) {
  const id = useId();
  const can = usePermissions();
  const current = baseline.join(',');
  // Several baseline hosts (set through the API) stay one choice until the user picks another.
  const several = baseline.length > 1;
  return (
    <label className="field findings-baseline" htmlFor={id}>
      <span>Baseline host</span>
      <select
        id={id}
        value={current}
        disabled={busy || hosts.length === 0 || !can.canRespond}
        onChange={(e) => onChange(e.target.value === '' ? [] : e.target.value.split(','))}
        data-testid="findings-baseline"
        title={can.whyNot('respond') ?? 'A healthy host to compare with: findings say what differs from it'}
      >
        <option value="">none</option>
        {several ? <option value={current}>{baseline.join(', ')}</option> : null}
        {hosts.map((h) => (
          <option key={h} value={h}>
            {h}
          </option>
        ))}
      </select>
    </label>
  );
}
