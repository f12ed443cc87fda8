/** Who may see an incident: the new-incident form's field, and the words of the incident page's badge. */
import type { Incident, Visibility } from '../../api/types';

/** "ana, bo ,ana,," → ["ana", "bo"]: user names typed comma-separated, each once, in typed order. */
export function parseMembers(text: string): string[] {
  const names: string[] = [];
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** What the form sends: members only for a restricted incident (the server adds the creator). */
export function visibilityFields(visibility: Visibility, membersText: string): { visibility: Visibility; members: string[] } {
  return { visibility, members: visibility === 'restricted' ? parseMembers(membersText) : [] };
}

/** "Restricted: ana, bo" for a restricted incident; null for a team-wide one. */
export function restrictedText(incident: Pick<Incident, 'visibility' | 'members'>): string | null {
  if (incident.visibility !== 'restricted') return null;
  return incident.members.length > 0 ? `Restricted: ${incident.members.join(', ')}` : 'Restricted: admins only';
}
