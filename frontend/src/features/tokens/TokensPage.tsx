import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createToken, listTokens, revokeToken } from '../../api/endpoints';
import type { ApiToken, ApiTokenLimits, NewApiToken } from '../../api/types';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { RevokeButton } from '../../shared/components/RevokeButton';
import { SecretOnce } from '../../shared/components/SecretOnce';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { TOKEN_EXPIRIES, tokenLimits } from './limits';
import './tokens.css';

const TOKENS_KEY = ['tokens'];

export function TokensPage() {
  useDocumentTitle('API tokens');
  const qc = useQueryClient();
  const tokens = useQuery({ queryKey: TOKENS_KEY, queryFn: ({ signal }) => listTokens(signal) });
  const [name, setName] = useState('');
  const [incident, setIncident] = useState('');
  const [host, setHost] = useState('');
  const [expiry, setExpiry] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<NewApiToken | null>(null);
  const create = useMutation<NewApiToken, Error, { name: string; limits: ApiTokenLimits }>({
    mutationFn: ({ name: n, limits }) => createToken(n, limits),
    onSuccess: (t) => {
      setCreated(t);
      setName('');
      setIncident('');
      setHost('');
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
  const revoke = useMutation({
    mutationFn: revokeToken,
    onSettled: () => void qc.invalidateQueries({ queryKey: TOKENS_KEY }),
  });

  return (
    <div className="stack tokens-page">
      <h1>API tokens</h1>
      <p className="muted">
        Tokens let the collector and <code>stallscope upload</code> send captures. The secret is shown once, when the token is created.
      </p>
      <form
        className="row token-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          const limits = tokenLimits(incident, host, TOKEN_EXPIRIES[expiry]?.days ?? null, Date.now());
          setProblem(typeof limits === 'string' ? limits : null);
          if (typeof limits !== 'string') create.mutate({ name: name.trim(), limits });
        }}
      >
        <label className="field">
          <span>Name</span>
          <input value={name} placeholder="db hosts collector" maxLength={200} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Only incident</span>
          <input value={incident} placeholder="any" inputMode="numeric" size={8} onChange={(e) => setIncident(e.target.value)} />
        </label>
        <label className="field">
          <span>Only host</span>
          <input value={host} placeholder="any" maxLength={253} onChange={(e) => setHost(e.target.value)} />
        </label>
        <label className="field">
          <span>Expires after</span>
          <select value={expiry} onChange={(e) => setExpiry(Number(e.target.value))}>
            {TOKEN_EXPIRIES.map((x, i) => (
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
      {problem ? <ErrorBanner title="Could not create the token." error={problem} /> : null}
      {create.isError ? <ErrorBanner title="Could not create the token." error={create.error} /> : null}
      {created ? <NewSecret token={created} onDone={() => setCreated(null)} /> : null}
      {revoke.isError ? <ErrorBanner title="Could not revoke the token." error={revoke.error} /> : null}
      {tokens.isError ? <ErrorBanner title="Could not load tokens." error={tokens.error} onRetry={() => void tokens.refetch()} /> : null}
      {tokens.isPending ? <p className="muted">Loading tokens…</p> : null}
      {tokens.data && tokens.data.length === 0 ? (
        <EmptyState title="No tokens yet">
          <p>Create one above for each collector host or CI job, so each can be revoked on its own.</p>
        </EmptyState>
      ) : null}
      {tokens.data && tokens.data.length > 0 ? (
        <table className="table" data-testid="tokens-table">
          <thead>
            <tr>
              <th>Prefix</th>
              <th>Name</th>
              <th>Limited to</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((t) => (
              <TokenRow key={t.id} token={t} revoking={revoke.isPending && revoke.variables === t.id} onRevoke={() => revoke.mutate(t.id)} />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function TokenRow({ token: t, revoking, onRevoke }: { token: ApiToken; revoking: boolean; onRevoke: () => void }) {
  return (
    <tr className={t.revoked_at ? 'muted' : undefined}>
      <td className="mono">{t.prefix}…</td>
      <td>{t.name}</td>
      <td className="small">
        {t.incident_id === null && t.host === null ? (
          <span className="muted">any incident, any host</span>
        ) : (
          [t.incident_id !== null ? `incident #${t.incident_id}` : null, t.host !== null ? `host ${t.host}` : null].filter(Boolean).join(', ')
        )}
      </td>
      <td>
        <Time iso={t.created_at} relative />
      </td>
      <td>{t.last_used_at ? <Time iso={t.last_used_at} relative /> : <span className="muted">never</span>}</td>
      <td>{t.expires_at ? <Time iso={t.expires_at} /> : <span className="muted">never</span>}</td>
      <td>{t.revoked_at ? <span className="snap-failed">revoked <Time iso={t.revoked_at} /></span> : 'active'}</td>
      <td className="actions">
        {t.revoked_at ? null : (
          <RevokeButton question={`Revoke token “${t.name}” (${t.prefix}…)? Anything using it will stop working.`} revoking={revoking} onRevoke={onRevoke} />
        )}
      </td>
    </tr>
  );
}

function NewSecret({ token, onDone }: { token: NewApiToken; onDone: () => void }) {
  return (
    <SecretOnce what={`Token “${token.name}” created`} value={token.secret} onDone={onDone} testId="token-secret">
      On the collector host: <code className="mono">export STALLSCOPE_TOKEN={token.secret}</code>
    </SecretOnce>
  );
}
