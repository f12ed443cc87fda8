/**
 * Nothing but the sign-in page renders before the console knows who is there. A 401 from any later
 * request (the session expired or was ended elsewhere) sends the person to sign in again, coming
 * back to the same URL afterwards.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { onUnauthorized } from '../../api/http';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { GUEST_ENDED_PATH } from '../guests/guestScope';
import { forgetGuestTab, wasGuestTab } from '../guests/guestTab';
import { isSessionLost } from './api';
import { loginHref } from './nextPath';
import { meQuery } from './queries';

export function AuthGate() {
  const me = useQuery(meQuery());
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();

  useEffect(
    () =>
      onUnauthorized((url) => {
        if (!isSessionLost(url)) return;
        // A guest has no account to sign in with: its link was revoked or expired.
        if (qc.getQueryData(meQuery().queryKey)?.role === 'guest' || wasGuestTab()) {
          void navigate(GUEST_ENDED_PATH, { replace: true });
          return;
        }
        qc.setQueryData(meQuery().queryKey, null);
        // window.location, not the render's location: the 401 may answer a request from an older URL.
        void navigate(loginHref(window.location), { replace: true });
      }),
    [navigate, qc],
  );
  // A person signed in (in a tab a guest link once opened): their session's end means signing in again.
  const person = me.data != null && me.data.role !== 'guest';
  useEffect(() => {
    if (person) forgetGuestTab();
  }, [person]);

  if (me.isPending) return <p className="muted page">Loading…</p>;
  if (me.isError) {
    return (
      <main className="page">
        <ErrorBanner title="Could not ask who is signed in." error={me.error} onRetry={() => void me.refetch()} />
      </main>
    );
  }
  if (me.data === null) return <Navigate to={wasGuestTab() ? GUEST_ENDED_PATH : loginHref(location)} replace />;
  return <Outlet />;
}
