/** The findings' keys, read by their handlers and by the `?` help. */
import type { ShortcutGroup } from '../../shared/shortcuts';

export const FINDINGS_LIST_SHORTCUTS: ShortcutGroup<'next' | 'previous' | 'first' | 'last'> = {
  title: 'Findings',
  where: 'on a finding (Tab to it; Enter opens it)',
  shortcuts: [
    { action: 'next', keys: ['ArrowDown'], does: 'The next finding' },
    { action: 'previous', keys: ['ArrowUp'], does: 'The previous finding' },
    { action: 'first', keys: ['Home'], does: 'The first finding' },
    { action: 'last', keys: ['End'], does: 'The last finding' },
  ],
};

export const WINDOW_FINDINGS_SHORTCUTS: ShortcutGroup<'ask'> = {
  title: 'Findings in this window',
  shortcuts: [{ action: 'ask', keys: ['f'], does: 'Name what the selected window shows that the rest of the time does not' }],
};
