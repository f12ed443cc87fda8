/** The threads view's keys, read by its handlers and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const THREADS_SHORTCUTS: ShortcutGroup<'close'> = {
  title: 'Threads',
  place: 'view',
  shortcuts: [{ action: 'close', keys: ['Escape'], does: 'Close the thread’s details' }],
};

export const THREAD_ROW_SHORTCUTS: ShortcutGroup<'open' | 'next' | 'previous'> = {
  title: 'Thread table',
  where: 'on a row (Tab to it)',
  shortcuts: [
    { action: 'next', keys: ['ArrowDown'], does: 'The next thread' },
    { action: 'previous', keys: ['ArrowUp'], does: 'The previous thread' },
    { action: 'open', keys: ['Enter'], does: 'Open the thread’s details' },
  ],
};

export const THREAD_FILTER_SHORTCUTS: ShortcutGroup<'apply'> = {
  title: 'Thread name filter',
  where: 'in the field',
  shortcuts: [{ action: 'apply', keys: ['Enter'], does: 'Apply the filter (a regular expression; empty shows every thread)' }],
};
