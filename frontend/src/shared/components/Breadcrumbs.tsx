import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useMe } from '../../features/auth/usePermissions';
import { isGuest } from '../../features/guests/guestScope';
import { incidentQuery } from '../../features/incidents/queries';
import { clip, incidentLabel } from '../breadcrumbs';
import './Breadcrumbs.css';

export interface Crumb {
  label: string;
  /** Where the crumb leads; the last crumb is the page itself and never a link. */
  to?: string;
}

/**
 * Where a page sits, with a way back up: Incidents › the incident (by its title) › what this page
 * shows. A guest, whose link opens one incident, starts at that incident.
 */
export function Breadcrumbs({ incident, trail = [] }: { incident: number | null; trail?: Crumb[] }) {
  const me = useMe();
  const named = useQuery({ ...incidentQuery(incident ?? 0), enabled: incident !== null });
  const crumbs: Crumb[] = [];
  if (!isGuest(me)) crumbs.push({ label: 'Incidents', to: '/' });
  if (incident !== null) crumbs.push({ label: incidentLabel(incident, named.data?.title), to: `/incidents/${incident}` });
  crumbs.push(...trail);
  return (
    <nav className="crumbs" aria-label="Breadcrumbs" data-testid="breadcrumbs">
      <ol className="crumbs__list">
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={i} className="crumbs__item">
              {i > 0 ? (
                <span className="crumbs__sep" aria-hidden="true">
                  ›
                </span>
              ) : null}
              {c.to !== undefined && !last ? (
                <Link to={c.to} title={c.label}>
                  {clip(c.label)}
                </Link>
              ) : (
                <span aria-current={last ? 'page' : undefined} title={c.label}>
                  {clip(c.label)}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
