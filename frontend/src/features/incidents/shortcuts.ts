/** The incident list's keys, read by its handlers and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const INCIDENT_LIST_SHORTCUTS: ShortcutGroup<'focus'> = {
  title: 'Incidents',
  place: 'view',
  shortcuts: [{ action: 'focus', keys: ['/'], does: 'Jump to the incident filter' }],
};

export const INCIDENT_FILTER_FIELD_SHORTCUTS: ShortcutGroup<'clear'> = {
  title: 'Incidents',
  where: 'in the filter',
  shortcuts: [{ action: 'clear', keys: ['Escape'], does: 'Clear the filter and leave the field' }],
};
