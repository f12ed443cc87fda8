import { useRef } from 'react';
import { useSlashFocus } from '../hooks/useHotkeys';
import { useUrlText } from '../hooks/useUrlText';

interface Props {
  /** The term in the URL; typing reaches it after a pause, Enter at once, Esc clears it. */
  value: string;
  onCommit: (term: string) => void;
  testId: string;
  className?: string;
}

/** The frame search of the flame and diff views: `/` focuses it, matches are literal. */
export function FrameSearch({ value, onCommit, testId, className }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const text = useUrlText(value, onCommit);
  useSlashFocus(inputRef);
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
          if (e.key === 'Enter') text.setNow(text.draft);
          if (e.key === 'Escape') {
            text.setNow('');
            e.currentTarget.blur();
          }
        }}
      />
      <kbd className="search__key">/</kbd>
    </label>
  );
}
