import { Link, NavLink, Outlet } from 'react-router';
import { UserMenu } from '../features/auth/UserMenu';
import { useMe, usePermissions } from '../features/auth/usePermissions';
import { GuestBanner, GuestScope } from '../features/guests/GuestScope';
import { isGuest } from '../features/guests/guestScope';
import { HealthBanner } from '../features/health/HealthBanner';

export function Layout() {
  const can = usePermissions();
  const me = useMe();
  return (
    <div className="app">
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Stallscope home">
          <svg width="18" height="18" viewBox="0 0 32 32" aria-hidden="true">
            <rect x="2" y="23" width="28" height="6" rx="1" fill="#e8a23c" />
            <rect x="4" y="16" width="16" height="6" rx="1" fill="#e0715a" />
            <rect x="6" y="9" width="9" height="6" rx="1" fill="#e0715a" />
            <rect x="21" y="16" width="7" height="6" rx="1" fill="#58b368" />
          </svg>
          Stallscope
        </Link>
        <nav className="topbar__nav">
          {isGuest(me) ? (
            <NavLink to={`/incidents/${me.incident_id}`}>Incident #{me.incident_id}</NavLink>
          ) : (
            <NavLink to="/" end>
              Incidents
            </NavLink>
          )}
          {can.canRespond ? <NavLink to="/tokens">API tokens</NavLink> : null}
        </nav>
        <UserMenu />
      </header>
      <main className="page">
        <HealthBanner />
        <GuestBanner />
        <GuestScope>
          <Outlet />
        </GuestScope>
      </main>
    </div>
  );
}
