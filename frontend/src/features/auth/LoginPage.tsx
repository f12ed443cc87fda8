import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { getSingleSignOn, logIn, singleSignOnHref, type Me } from './api';
import { safeNext } from './nextPath';
import { meQuery } from './queries';
import './auth.css';

export function LoginPage() {
  useDocumentTitle('Sign in');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  // The single sign-on callback comes back here with its reason when it fails.
  const ssoError = params.get('error');
  const sso = useQuery({ queryKey: ['auth', 'oidc'], queryFn: ({ signal }) => getSingleSignOn(signal), staleTime: Infinity, retry: false });
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const id = useId();
  const nameField = useRef<HTMLInputElement>(null);
  // The first thing anyone does here is type their name.
  useEffect(() => nameField.current?.focus(), []);
  const signIn = useMutation<Me, Error, { username: string; password: string }>({
    mutationFn: (c) => logIn(c.username, c.password),
    onSuccess: (me) => {
      // Whatever was cached belongs to whoever was here before.
      qc.clear();
      qc.setQueryData(meQuery().queryKey, me);
      void navigate(next, { replace: true });
    },
  });

  return (
    <main className="login">
      <form
        className="login__box stack"
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          if (username.trim() && password) signIn.mutate({ username: username.trim(), password });
        }}
      >
        <h1 id={`${id}-title`}>Sign in to Stallscope</h1>
        <label className="field">
          <span>Name</span>
          <input
            name="username"
            autoComplete="username"
            ref={nameField}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {signIn.isError ? <ErrorBanner title="Could not sign in:" error={signIn.error} /> : null}
        {ssoError && !signIn.isError ? <ErrorBanner title="Single sign-on failed:" error={ssoError} /> : null}
        <button type="submit" className="btn btn--primary" disabled={signIn.isPending || !username.trim() || !password}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {sso.data?.enabled ? (
          <a className="btn" href={singleSignOnHref(next)}>
            Sign in with {sso.data.label}
          </a>
        ) : null}
      </form>
    </main>
  );
}
