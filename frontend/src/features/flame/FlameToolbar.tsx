import { useState } from 'react';
import { CopyLinkButton } from '../../shared/components/CopyLinkButton';
import { FrameSearch } from '../../shared/components/FrameSearch';
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
  // Reset also drops text typed but not yet committed: a new search field starts empty.
  const [searchField, setSearchField] = useState(0);
  return (
    <div className="toolbar flame-toolbar">
      <FrameSearch key={searchField} value={search} onCommit={onSearch} testId="flame-search" />
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
          setSearchField((n) => n + 1);
          onReset();
        }}
        disabled={!zoomed && !search}
        title="Reset zoom and search (Esc)"
      >
        Reset <kbd>Esc</kbd>
      </button>
      <CopyLinkButton testId="copy-link" />
      <a className="btn" href={foldedHref} download={foldedName}>
        Download folded
      </a>
    </div>
  );
}
