import { useId, useState } from 'react';
import type { RedactionPolicy } from '../../api/bundle';
import { errorMessage } from '../../api/http';
import { addCustomRule } from './policyEdit';

interface Props {
  policy: RedactionPolicy;
  /** Preview with the rule added; rejects with the server's message (a bad pattern: 422). */
  onAdd: (policy: RedactionPolicy) => Promise<void>;
}

/** "Add a rule": a name (the pseudonym's stem) and a regular expression, checked by the server. */
export function AddRuleForm({ policy, onAdd }: Props) {
  const [name, setName] = useState('');
  const [pattern, setPattern] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const id = useId();
  return (
    <form
      className="bundle-add-rule"
      aria-label="Add a rule"
      data-testid="add-rule"
      onSubmit={(e) => {
        e.preventDefault();
        const result = addCustomRule(policy, name, pattern);
        if ('problem' in result) {
          setProblem(result.problem);
          return;
        }
        setAdding(true);
        setProblem(null);
        onAdd(result.policy)
          .then(() => {
            setName('');
            setPattern('');
          })
          .catch((err: unknown) => setProblem(errorMessage(err)))
          .finally(() => setAdding(false));
      }}
    >
      <strong className="small">Add a rule</strong>
      <div className="row">
        <label className="field">
          <span>Name</span>
          <input value={name} placeholder="ticket" data-testid="add-rule-name" onChange={(e) => setName(e.target.value)} aria-describedby={`${id}-problem`} />
        </label>
        <label className="field bundle-add-rule__pattern">
          <span>Regular expression (Python syntax)</span>
          <input
            value={pattern}
            placeholder="ACME-\d+"
            className="mono"
            data-testid="add-rule-pattern"
            onChange={(e) => setPattern(e.target.value)}
            aria-describedby={`${id}-problem`}
          />
        </label>
        <button type="submit" className="btn btn--small" disabled={adding} data-testid="add-rule-submit">
          {adding ? 'Checking…' : 'Add rule'}
        </button>
      </div>
      <p id={`${id}-problem`} className="field-error small" role={problem ? 'alert' : undefined} data-testid="add-rule-problem">
        {problem ?? ''}
      </p>
    </form>
  );
}
