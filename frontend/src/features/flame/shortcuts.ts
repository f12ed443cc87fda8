/** The flame graph's keys, read by its handler and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const FLAME_SHORTCUTS: ShortcutGroup<'reset'> = {
  title: 'Flame graph',
  place: 'view',
  shortcuts: [{ action: 'reset', keys: ['Escape'], does: 'Zoom out to the root and clear the frame search' }],
};
