import { useRef, useState } from 'react';
import { copyText } from '../../shared/clipboard';
import { useSlashFocus } from '../../shared/hooks/useHotkeys';
import { useUrlText } from '../../shared/hooks/useUrlText';
import { formatPercent, formatValue } from '../../shared/units';

interface Props {
  search: string;
  onSearch: (term: string) => void;
  /** null while no search is active */
  matched: { fraction: number; value: number } | null;
  unit: string;
  zoomed: boolean;
  onReset: () => void;
  foldedHref: string;
  foldedName: string;
}

export function FlameToolbar({ search, onSearch, matched, unit, zoomed, onReset, foldedHref, foldedName }: Props) {
  const searchRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'idle' | 'ok' | 'failed'>('idle');
  const text = useUrlText(search, onSearch);
  useSlashFocus(searchRef);

  const copy = async () => {
    const ok = await copyText(window.location.href);
    setCopied(ok ? 'ok' : 'failed');
    window.setTimeout(() => setCopied('idle'), 2000);
  };

  return (
    <div className="toolbar flame-toolbar">
      <label className="search">
        <span className="visually-hidden">Search frames</span>
        <input
          ref={searchRef}
          type="search"
          placeholder="Search frames (literal, case-insensitive)"
          value={text.draft}
          spellCheck={false}
          data-testid="flame-search"
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
      <span className="matched" data-testid="flame-matched" aria-live="polite">
        {matched
          ? matched.value > 0
            ? `matched ${formatPercent(matched.fraction)} of total · ${formatValue(matched.value, unit)}`
            : 'no frame matches'
          : ''}
      </span>
      <div className="spacer" />
      <button
        type="button"
        className="btn"
        onClick={() => {
          text.setDraft('');
          onReset();
        }}
        disabled={!zoomed && !search && !text.draft}
        title="Reset zoom and search (Esc)"
      >
        Reset <kbd>Esc</kbd>
      </button>
      <button type="button" className="btn" onClick={() => void copy()} data-testid="copy-link">
        {copied === 'ok' ? 'Copied ✓' : copied === 'failed' ? 'Copy failed — use the address bar' : 'Copy link'}
      </button>
      <a className="btn" href={foldedHref} download={foldedName}>
        Download folded
      </a>
    </div>
  );
}
