import { Link, NavLink, Outlet } from 'react-router';
import { BrandMark } from './BrandMark';
import { UserMenu } from '../features/auth/UserMenu';
import { useMe, usePermissions } from '../features/auth/usePermissions';
import { GuestBanner, GuestScope } from '../features/guests/GuestScope';
import { isGuest } from '../features/guests/guestScope';
import { HealthBanner } from '../features/health/HealthBanner';
import { ShortcutHelpButton } from '../shared/components/ShortcutHelp';

export function Layout() {
  const can = usePermissions();
  const me = useMe();
  return (
    <div className="app">
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Stallscope home">
          <BrandMark />
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
          {can.canRead && !isGuest(me) ? <NavLink to="/watch">Watch</NavLink> : null}
          {can.canRespond ? <NavLink to="/tokens">API tokens</NavLink> : null}
        </nav>
        <ShortcutHelpButton />
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
