/** The differential flame graph's keys, read by its handler and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const DIFF_SHORTCUTS: ShortcutGroup<'reset'> = {
  title: 'Differential flame graph',
  place: 'view',
  shortcuts: [{ action: 'reset', keys: ['Escape'], does: 'Zoom out to the root and clear the frame search' }],
};
