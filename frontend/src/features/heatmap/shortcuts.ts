/** The heatmap's keys, read by its handlers and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const HEATMAP_SHORTCUTS: ShortcutGroup<'clear'> = {
  title: 'Heatmap',
  place: 'view',
  shortcuts: [{ action: 'clear', keys: ['Escape'], does: 'Clear the selected cells' }],
};

const ARROWS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'];

/** Moves are `grid.ts`'s `moveCell` steps; the first move only shows the cursor where it is. */
export const HEATMAP_GRID_SHORTCUTS: ShortcutGroup<'move' | 'extend' | 'jump' | 'page' | 'select' | 'hide'> = {
  title: 'Heatmap grid',
  where: 'with the grid focused (Tab to it)',
  shortcuts: [
    { action: 'move', keys: ARROWS, shift: false, does: 'Show the cell cursor, then move it a cell' },
    { action: 'extend', keys: ARROWS, shift: true, does: 'Stretch the cursor into a rectangle of cells' },
    { action: 'jump', keys: ['Home', 'End'], does: 'To the first or the last column (with Shift: stretch)' },
    { action: 'page', keys: ['PageUp', 'PageDown'], does: 'Ten rows up or down (with Shift: stretch)' },
    { action: 'select', keys: ['Enter', ' '], does: 'Select the cells under the cursor' },
    { action: 'hide', keys: ['Escape'], does: 'Hide the cursor' },
  ],
};
