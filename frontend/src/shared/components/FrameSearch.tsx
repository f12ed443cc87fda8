import { useRef } from 'react';
import { useShortcutHelp, useSlashFocus } from '../hooks/useShortcuts';
import { useUrlText } from '../hooks/useUrlText';
import { shortcutFor, type ShortcutGroup } from '../shortcuts';

interface Props {
  /** The term in the URL; typing reaches it after a pause, Enter at once, Esc clears it. */
  value: string;
  onCommit: (term: string) => void;
  testId: string;
  className?: string;
}

const FRAME_SEARCH_SHORTCUTS: ShortcutGroup<'focus'> = {
  title: 'Frame search',
  shortcuts: [{ action: 'focus', keys: ['/'], does: 'Jump to the frame search' }],
};

const FRAME_SEARCH_FIELD_SHORTCUTS: ShortcutGroup<'now' | 'clear'> = {
  title: 'Frame search',
  where: 'in the search field',
  shortcuts: [
    { action: 'now', keys: ['Enter'], does: 'Search now, without waiting for the pause' },
    { action: 'clear', keys: ['Escape'], does: 'Clear the search and leave the field' },
  ],
};

/** The frame search of the flame and diff views: `/` focuses it, matches are literal. */
export function FrameSearch({ value, onCommit, testId, className }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const text = useUrlText(value, onCommit);
  useSlashFocus(inputRef, FRAME_SEARCH_SHORTCUTS);
  useShortcutHelp(FRAME_SEARCH_FIELD_SHORTCUTS);
  return (
    <label className={className ? `search ${className}` : 'search'}>
      <span className="visually-hidden">Search frames</span>
      <input
        ref={inputRef}
        type="search"
        placeholder="Search frames (literal, case-insensitive)"
        value={text.draft}
        spellCheck={false}
        data-testid={testId}
        onChange={(e) => text.setDraft(e.target.value)}
        onKeyDown={(e) => {
          const action = shortcutFor(FRAME_SEARCH_FIELD_SHORTCUTS, e)?.action;
          if (action === 'now') text.setNow(text.draft);
          if (action === 'clear') {
            text.setNow('');
            e.currentTarget.blur();
          }
        }}
      />
      <kbd className="search__key">/</kbd>
    </label>
  );
}
