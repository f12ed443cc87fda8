import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import type { RetentionPolicy } from './api';
import { retentionQuery, useSaveRetention } from './queries';
import { draftOfPolicy, MAX_DAYS, policyOf, type RetentionDraft } from './retentionForm';
import './lifecycle.css';

/** Admins: how long resolved incidents' captures, failed uploads, watch captures and the trash are kept. */
export function RetentionPage() {
  useDocumentTitle('Retention');
  const policy = useQuery(retentionQuery());
  const save = useSaveRetention();
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Retention</h1>
          <p className="muted">What the console removes by itself. It applies the policy within the hour; leave a field blank for never.</p>
        </div>
      </div>
      {policy.isError ? <ErrorBanner title="Could not load the policy:" error={policy.error} onRetry={() => void policy.refetch()} /> : null}
      {policy.isPending ? <p className="muted">Loading the policy…</p> : null}
      {/* Keyed by the saved policy so the form starts again from what the server holds. */}
      {policy.data ? <RetentionForm key={JSON.stringify(policy.data)} policy={policy.data} save={save} /> : null}
    </div>
  );
}

function RetentionForm({ policy, save }: { policy: RetentionPolicy; save: ReturnType<typeof useSaveRetention> }) {
  const id = useId();
  const [draft, setDraft] = useState<RetentionDraft>(() => draftOfPolicy(policy));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (key: keyof RetentionDraft, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = (e: React.SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    const out = policyOf(draft);
    if ('problem' in out) {
      setProblem(out.problem);
      return;
    }
    setProblem(null);
    save.mutate(out.policy);
  };

  const days = (key: keyof RetentionDraft, label: string, help: string, optional: boolean) => (
    <>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <div className="row">
        <input
          id={`${id}-${key}`}
          name={key}
          inputMode="numeric"
          placeholder={optional ? 'never' : undefined}
          required={!optional}
          value={draft[key]}
          onChange={(e) => set(key, e.target.value)}
        />
        <span className="muted small">
          days{optional ? ' (blank: never)' : ''} — {help}
        </span>
      </div>
    </>
  );

  return (
    <form className="card form retention-form" aria-label="Retention policy" onSubmit={submit}>
      <div className="form__grid">
        {days('resolvedAfterDays', 'Resolved incidents', 'their captures go to the trash this long after the incident was resolved', true)}
        {days('failedAfterDays', 'Failed uploads', 'captures that failed to parse go to the trash at this age', true)}
        {days('watchDays', 'Watch captures', "hosts' periodic watch captures go to the trash at this age (incidents opened from alerts keep their own copies)", true)}
        {days('trashDays', 'Trash', 'what is in the trash is purged for good after this long', false)}
      </div>
      {problem ? (
        <p className="form__problem" role="alert">
          {problem}
        </p>
      ) : null}
      {save.isError ? <ErrorBanner title="Could not save the policy." error={save.error} /> : null}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {save.isSuccess ? <span className="muted small" role="status">Saved.</span> : null}
        <span className="muted small">0 to {MAX_DAYS} days</span>
      </div>
    </form>
  );
}
