/**
 * The console as a guest link's holder sees it: a banner saying so, its one incident and the views
 * the link opens, views opened on the link's captures. For everyone else these render nothing extra.
 */
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { Time } from '../../shared/components/Time';
import { useMe } from '../auth/usePermissions';
import { guestPlace, guestScopeText, isGuest } from './guestScope';
import './guests.css';

/** "Guest view of incident #N (read-only)", above every page a guest opens. */
export function GuestBanner() {
  const me = useMe();
  if (!isGuest(me)) return null;
  return (
    <p className="banner banner--info guest-banner" role="status" data-testid="guest-banner">
      <span>
        <strong>Guest view of incident #{me.incident_id} (read-only)</strong> · shows {guestScopeText(me)} ·{' '}
        {me.expires_at ? (
          <>
            the link works until <Time iso={me.expires_at} />, unless revoked
          </>
        ) : (
          'the link stops working when it expires or is revoked'
        )}
      </span>
    </p>
  );
}

/** Renders the page for a guest only where its link reaches; elsewhere says why, or goes where it should. */
export function GuestScope({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  const place = guestPlace(me, location);
  if (place.kind === 'redirect') return <Navigate to={place.to} replace />;
  if (place.kind === 'refuse' && isGuest(me)) {
    return (
      <EmptyState title={place.reason}>
        <Link to={`/incidents/${me.incident_id}`}>Back to incident #{me.incident_id}</Link>
      </EmptyState>
    );
  }
  return children;
}
