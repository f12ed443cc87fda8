/** The events table's keys, read by its handler and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const EVENT_ROW_SHORTCUTS: ShortcutGroup<'open'> = {
  title: 'Events',
  where: 'on a row (Tab to it)',
  shortcuts: [{ action: 'open', keys: ['Enter', ' '], does: 'Show the event’s details and stack' }],
};
