/** The timeline's keys, read by its handler and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const TIMELINE_SHORTCUTS: ShortcutGroup<'zoomIn' | 'zoomOut' | 'whole' | 'earlier' | 'later' | 'annotate' | 'cancel'> = {
  title: 'Timeline',
  place: 'view',
  shortcuts: [
    { action: 'zoomIn', keys: ['+', '='], does: 'Zoom in around the middle' },
    { action: 'zoomOut', keys: ['-', '_'], does: 'Zoom out' },
    { action: 'whole', keys: ['0'], does: 'Show the whole incident' },
    { action: 'earlier', keys: ['['], does: 'Pan a quarter of the range earlier' },
    { action: 'later', keys: [']'], does: 'Pan a quarter of the range later' },
    { action: 'annotate', keys: ['a'], does: 'Start or stop adding an annotation (click the chart where it goes)' },
    { action: 'cancel', keys: ['Escape'], does: 'Stop annotating and close the open annotation' },
  ],
};
