/**
 * `/g/<secret>`: a guest link. Outside the sign-in gate: the page trades the secret for a guest
 * session (a cookie) and goes to the link's incident. A refused link (revoked, expired, unknown) is
 * said plainly, with no way into the console: its holder has no account.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../api/http';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import type { Me } from '../auth/api';
import { meQuery } from '../auth/queries';
import { openGuestLink } from './api';
import { forgetGuestTab, markGuestTab } from './guestTab';
import './guests.css';

export function GuestLinkPage() {
  useDocumentTitle('Guest link');
  const { secret = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const open = useMutation<Me, Error, string>({
    mutationFn: openGuestLink,
    onSuccess: (me) => {
      if (me.incident_id === null) return;
      // Whatever was cached belongs to whoever used this browser before.
      qc.clear();
      qc.setQueryData(meQuery().queryKey, me);
      markGuestTab();
      // Replace: the secret leaves the address bar.
      void navigate(`/incidents/${me.incident_id}`, { replace: true });
    },
  });
  // Each opening counts as a use in the audit log: once per visit, not once per render.
  const sent = useRef(false);
  const { mutate } = open;
  useEffect(() => {
    if (sent.current || !secret) return;
    sent.current = true;
    mutate(secret);
  }, [mutate, secret]);

  const refused = open.isError ? errorMessage(open.error) : open.data?.incident_id === null ? 'This link does not open an incident.' : null;
  return (
    <main className="guest-page">
      <div className="guest-page__box stack">
        <h1>Stallscope guest link</h1>
        {refused ? (
          <p className="banner banner--error" role="alert" data-testid="guest-link-refused">
            {refused}
          </p>
        ) : (
          <p className="muted">Opening the incident…</p>
        )}
      </div>
    </main>
  );
}

/** Where a guest lands when its session ends under an open page: the link was revoked or expired. */
export function GuestEndedPage() {
  useDocumentTitle('Guest view ended');
  const qc = useQueryClient();
  // Nothing the guest session fetched may stay on the page; the tab is told once.
  useEffect(() => {
    qc.clear();
    forgetGuestTab();
  }, [qc]);
  return (
    <main className="guest-page">
      <div className="guest-page__box stack">
        <h1>This guest view has ended</h1>
        <p className="banner banner--error" role="alert" data-testid="guest-ended">
          The guest link was revoked or it expired: ask whoever sent it for a new one.
        </p>
      </div>
    </main>
  );
}
