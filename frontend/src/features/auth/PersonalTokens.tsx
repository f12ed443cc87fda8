import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RevokeButton } from '../../shared/components/RevokeButton';
import { SecretOnce } from '../../shared/components/SecretOnce';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { createPersonalToken, revokePersonalToken, tokenState, type NewPersonalToken, type PersonalToken } from './api';
import { personalTokensQuery } from './queries';

/** Expiry choices, in days; null never expires (allowed, not recommended). */
const EXPIRIES: { label: string; days: number | null }[] = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'never (not recommended)', days: null },
];

/** Personal API tokens: the CLI and scripts act as you, with your role, through `STALLSCOPE_TOKEN`. */
export function PersonalTokens() {
  const qc = useQueryClient();
  const tokens = useQuery(personalTokensQuery());
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState(1);
  const [created, setCreated] = useState<NewPersonalToken | null>(null);
  // When the page opened: good enough to tell an expired token from an active one.
  const [now] = useState(() => Date.now());
  const refresh = () => void qc.invalidateQueries({ queryKey: personalTokensQuery().queryKey });
  const create = useMutation({
    mutationFn: () => createPersonalToken(name.trim(), EXPIRIES[expiry]?.days ?? 90),
    onSuccess: (t) => {
      setCreated(t);
      setName('');
    },
    onSettled: refresh,
  });
  const revoke = useMutation({ mutationFn: revokePersonalToken, onSettled: refresh });

  return (
    <section className="stack stack--tight">
      <h2>Personal API tokens</h2>
      <p className="muted">
        For the <code>stallscope</code> command line and scripts: a token acts as you, with your role. The secret is shown once.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate();
        }}
      >
        <label className="field">
          <span>Name</span>
          <input value={name} placeholder="laptop CLI" maxLength={200} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Expires after</span>
          <select value={expiry} onChange={(e) => setExpiry(Number(e.target.value))}>
            {EXPIRIES.map((x, i) => (
              <option key={x.label} value={i}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn--primary" disabled={!name.trim() || create.isPending}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
      </form>
      {create.isError ? <ErrorBanner title="Could not create the token:" error={create.error} /> : null}
      {created ? <NewSecret token={created} onDone={() => setCreated(null)} /> : null}
      {revoke.isError ? <ErrorBanner title="Could not revoke the token:" error={revoke.error} /> : null}
      {tokens.isError ? <ErrorBanner title="Could not load your tokens:" error={tokens.error} onRetry={() => void tokens.refetch()} /> : null}
      {tokens.data?.length === 0 ? <EmptyState title="No personal tokens" /> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <table className="table" data-testid="personal-tokens">
          <thead>
            <tr>
              <th>Prefix</th>
              <th>Name</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((t) => (
              <TokenRow key={t.id} token={t} state={tokenState(t, now)} revoking={revoke.isPending && revoke.variables === t.id} onRevoke={() => revoke.mutate(t.id)} />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function TokenRow({
  token: t,
  state,
  revoking,
  onRevoke,
}: {
  token: PersonalToken;
  state: ReturnType<typeof tokenState>;
  revoking: boolean;
  onRevoke: () => void;
}) {
  return (
    <tr className={t.revoked_at ? 'muted' : undefined}>
      <td className="mono">{t.prefix}…</td>
      <td>{t.name}</td>
      <td>
        <Time iso={t.created_at} relative />
      </td>
      <td>{t.last_used_at ? <Time iso={t.last_used_at} relative /> : <span className="muted">never</span>}</td>
      <td>{t.expires_at ? <Time iso={t.expires_at} /> : <span className="muted">never</span>}</td>
      <td>{state}</td>
      <td className="actions">
        {t.revoked_at ? null : (
          <RevokeButton question={`Revoke token “${t.name}” (${t.prefix}…)? Scripts using it will stop working.`} revoking={revoking} onRevoke={onRevoke} />
        )}
      </td>
    </tr>
  );
}

function NewSecret({ token, onDone }: { token: NewPersonalToken; onDone: () => void }) {
  return (
    <SecretOnce what={`Token “${token.name}” created`} value={token.secret} onDone={onDone} testId="personal-token-secret">
      Set it as <code className="mono">STALLSCOPE_TOKEN</code> for the command line: <code className="mono">export STALLSCOPE_TOKEN={token.secret}</code>
    </SecretOnce>
  );
}
