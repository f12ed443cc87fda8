import type { Incident } from '../../api/types';
import { restrictedText } from './visibility';

/** "Restricted: ana, bo" on a restricted incident's page: who else can see what is written here. */
export function VisibilityBadge({ incident }: { incident: Pick<Incident, 'visibility' | 'members'> }) {
  const text = restrictedText(incident);
  if (text === null) return null;
  return (
    <p className="row">
      <span className="badge" data-testid="restricted-badge" title="Only these people and the admins see this incident">
        {text}
      </span>
    </p>
  );
}
