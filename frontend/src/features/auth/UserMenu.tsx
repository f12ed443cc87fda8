import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/http';
import { logOut } from './api';
import { permissionsOf } from './permissions';
import { useMe } from './usePermissions';
import './auth.css';

/** The header's "who am I" menu: account, the admin pages for admins, and signing out. */
export function UserMenu() {
  const me = useMe();
  const menu = useRef<HTMLDetailsElement>(null);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const signOut = useMutation({
    mutationFn: logOut,
    onSuccess: async () => {
      await navigate('/login', { replace: true });
      // Nothing fetched for this person may show to the next one (cleared once no page is using it).
      qc.clear();
    },
  });
  if (!me) return null;
  const can = permissionsOf(me);
  const close = () => menu.current?.removeAttribute('open');

  return (
    <details className="user-menu" ref={menu} data-testid="user-menu">
      <summary className="user-menu__summary" aria-label={`Signed in as ${me.name} (${me.role})`}>
        <span className="user-menu__name">{me.name}</span> <span className="user-menu__role">{me.role}</span>
      </summary>
      <div className="user-menu__panel" role="menu">
        {me.user_id !== null ? (
          <Link role="menuitem" to="/account" onClick={close}>
            Account
          </Link>
        ) : null}
        {can.canAdmin ? (
          <>
            <Link role="menuitem" to="/admin/people" onClick={close}>
              People
            </Link>
            <Link role="menuitem" to="/admin/audit" onClick={close}>
              Audit log
            </Link>
            <Link role="menuitem" to="/admin/trash" onClick={close}>
              Trash
            </Link>
            <Link role="menuitem" to="/admin/retention" onClick={close}>
              Retention
            </Link>
            <Link role="menuitem" to="/tokens" onClick={close}>
              Collector tokens
            </Link>
          </>
        ) : null}
        <button type="button" role="menuitem" className="btn btn--small" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          {signOut.isPending ? 'Signing out…' : 'Sign out'}
        </button>
        {signOut.isError ? <p className="banner banner--error small">Could not sign out: {errorMessage(signOut.error)}</p> : null}
      </div>
    </details>
  );
}
