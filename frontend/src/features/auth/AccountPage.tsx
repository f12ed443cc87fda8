import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { changePassword } from './api';
import { newPasswordProblem } from './passwordForm';
import { PersonalTokens } from './PersonalTokens';
import { useMe } from './usePermissions';
import './auth.css';

export function AccountPage() {
  useDocumentTitle('Account');
  const me = useMe();
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Account</h1>
          {me ? (
            <p className="muted">
              Signed in as <strong>{me.name}</strong> ({me.role}).
            </p>
          ) : null}
        </div>
      </div>
      {me?.user_id === null ? (
        <p className="muted">This sign-in has no account of its own: there is no password or token to manage.</p>
      ) : (
        <>
          <PasswordForm />
          <PersonalTokens />
        </>
      )}
    </div>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const problem = next || repeated ? newPasswordProblem(next, repeated) : null;
  const change = useMutation({
    mutationFn: () => changePassword(current, next),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setRepeated('');
    },
  });
  return (
    <section className="stack stack--tight">
      <h2>Password</h2>
      <form
        className="stack stack--tight account-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (current && newPasswordProblem(next, repeated) === null) change.mutate();
        }}
      >
        <label className="field">
          <span>Current password</span>
          <input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} required />
        </label>
        <label className="field">
          <span>New password</span>
          <input type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required />
        </label>
        <label className="field">
          <span>New password again</span>
          <input type="password" autoComplete="new-password" value={repeated} onChange={(e) => setRepeated(e.target.value)} required />
        </label>
        {problem ? <p className="muted small">{problem}</p> : null}
        {change.isError ? <ErrorBanner title="Could not change the password:" error={change.error} /> : null}
        {change.isSuccess ? (
          <p className="small" role="status">
            Password changed. Sessions signed in with the old one have ended.
          </p>
        ) : null}
        <div className="row">
          <button type="submit" className="btn btn--primary" disabled={!current || problem !== null || !next || change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
