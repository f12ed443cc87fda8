import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { MIN_PASSWORD_LENGTH } from '../auth/passwordForm';
import { useMe } from '../auth/usePermissions';
import { ACCOUNT_ROLES, changeUser, createUser, type AccountRole, type NewUser, type User, type UserChange } from './api';
import { usersQuery } from './queries';

const ROLE_HELP: Record<AccountRole, string> = {
  viewer: 'reads everything, changes nothing',
  responder: 'creates and edits incidents, uploads, annotates, shares, exports',
  admin: 'everything, plus people, every token and the audit log',
};

export function PeoplePage() {
  useDocumentTitle('People');
  const qc = useQueryClient();
  const users = useQuery(usersQuery());
  const refresh = () => void qc.invalidateQueries({ queryKey: usersQuery().queryKey });
  const change = useMutation<User, Error, { id: number; change: UserChange }>({
    mutationFn: ({ id, change: c }) => changeUser(id, c),
    onSettled: refresh,
  });

  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>People</h1>
          <p className="muted">Who can sign in, and what each may do. Changes are written to the audit log.</p>
        </div>
      </div>
      <NewPersonForm onCreated={refresh} />
      {change.isError ? <ErrorBanner title="Could not change the account:" error={change.error} /> : null}
      {users.isError ? <ErrorBanner title="Could not load people:" error={users.error} onRetry={() => void users.refetch()} /> : null}
      {users.isPending ? <p className="muted">Loading people…</p> : null}
      {users.data ? (
        <table className="table" data-testid="people-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Signs in with</th>
              <th>Created</th>
              <th>Last sign-in</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {users.data.map((u) => (
              <PersonRow key={u.id} user={u} busy={change.isPending && change.variables.id === u.id} onChange={(c) => change.mutate({ id: u.id, change: c })} />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function PersonRow({ user: u, busy, onChange }: { user: User; busy: boolean; onChange: (change: UserChange) => void }) {
  const me = useMe();
  const [resetting, setResetting] = useState(false);
  const [password, setPassword] = useState('');
  const self = me?.user_id === u.id;
  return (
    <tr className={u.disabled_at ? 'muted' : undefined} data-testid="person-row" data-user={u.name}>
      <td>
        {u.name}
        {self ? <span className="muted small"> (you)</span> : null}
        {u.email ? <div className="muted small">{u.email}</div> : null}
      </td>
      <td>
        <select
          aria-label={`Role of ${u.name}`}
          value={u.role}
          disabled={busy}
          title={ROLE_HELP[u.role]}
          onChange={(e) => onChange({ role: e.target.value as AccountRole })}
        >
          {ACCOUNT_ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td className="small">{[u.has_password ? 'password' : null, u.sso ? 'single sign-on' : null].filter(Boolean).join(', ') || <span className="muted">nothing yet</span>}</td>
      <td>
        <Time iso={u.created_at} />
      </td>
      <td>{u.last_login_at ? <Time iso={u.last_login_at} relative /> : <span className="muted">never</span>}</td>
      <td>{u.disabled_at ? <span>disabled <Time iso={u.disabled_at} /></span> : 'active'}</td>
      <td className="actions">
        {resetting ? (
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              if (password.length >= MIN_PASSWORD_LENGTH) {
                onChange({ password });
                setPassword('');
                setResetting(false);
              }
            }}
          >
            <input
              type="password"
              autoComplete="new-password"
              aria-label={`New password for ${u.name}`}
              placeholder={`at least ${MIN_PASSWORD_LENGTH} characters`}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button type="submit" className="btn btn--small btn--primary" disabled={password.length < MIN_PASSWORD_LENGTH || busy}>
              Set
            </button>
            <button type="button" className="btn btn--small btn--ghost" onClick={() => setResetting(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <button type="button" className="btn btn--small" disabled={busy} onClick={() => setResetting(true)} title="Set a new password (signs the account out everywhere)">
            Reset password…
          </button>
        )}
        <button
          type="button"
          className="btn btn--small"
          disabled={busy}
          onClick={() => {
            if (u.disabled_at) onChange({ disabled: false });
            else if (window.confirm(`Disable ${u.name}? They are signed out and cannot sign in until enabled again.`)) onChange({ disabled: true });
          }}
        >
          {u.disabled_at ? 'Enable' : 'Disable…'}
        </button>
      </td>
    </tr>
  );
}

function NewPersonForm({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<AccountRole>('viewer');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const create = useMutation<User, Error, NewUser>({
    mutationFn: createUser,
    onSuccess: () => {
      setName('');
      setPassword('');
      setEmail('');
      onCreated();
    },
  });
  const shortPassword = password !== '' && password.length < MIN_PASSWORD_LENGTH;
  return (
    <section className="stack stack--tight">
      <h2>Add a person</h2>
      <form
        className="row"
        aria-label="Add a person"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim() || shortPassword) return;
          create.mutate({
            name: name.trim(),
            role,
            ...(password ? { password } : {}),
            ...(email.trim() ? { email: email.trim() } : {}),
          });
        }}
      >
        <label className="field">
          <span>Name</span>
          <input name="name" value={name} maxLength={64} autoComplete="off" onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Role</span>
          <select name="role" value={role} onChange={(e) => setRole(e.target.value as AccountRole)}>
            {ACCOUNT_ROLES.map((r) => (
              <option key={r} value={r}>
                {r} — {ROLE_HELP[r]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Password</span>
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            placeholder="empty: single sign-on only"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Email (optional)</span>
          <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <button type="submit" className="btn btn--primary" disabled={!name.trim() || shortPassword || create.isPending}>
          {create.isPending ? 'Adding…' : 'Add person'}
        </button>
      </form>
      {shortPassword ? <p className="muted small">A password needs at least {MIN_PASSWORD_LENGTH} characters.</p> : null}
      {create.isError ? <ErrorBanner title="Could not add the person:" error={create.error} /> : null}
      {create.isSuccess ? (
        <p className="small" role="status">
          Added {create.data.name} ({create.data.role}).
        </p>
      ) : null}
    </section>
  );
}
