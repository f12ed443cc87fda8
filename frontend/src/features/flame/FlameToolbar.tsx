import { useState } from 'react';
import type { ProfileFormat } from '../../api/endpoints';
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
  /** The same view as a profile other tools read (see `flameExportUrl`). */
  profileHref: (format: ProfileFormat) => string;
}

/** The folded download's name with the profile's own extension. */
const profileName = (foldedName: string, format: ProfileFormat): string =>
  foldedName.replace(/\.folded\.txt$/, '') + (format === 'pprof' ? '.pb.gz' : '.speedscope.json');

export function FlameToolbar({ search, onSearch, matched, unit, zoomed, onReset, foldedHref, foldedName, profileHref }: Props) {
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
      <a
        className="btn"
        href={profileHref('pprof')}
        download={profileName(foldedName, 'pprof')}
        title="This view as a pprof profile, for go tool pprof, Pyroscope and Parca"
        data-testid="export-pprof"
      >
        pprof
      </a>
      <a
        className="btn"
        href={profileHref('speedscope')}
        download={profileName(foldedName, 'speedscope')}
        title="This view as a speedscope file (speedscope.app)"
        data-testid="export-speedscope"
      >
        speedscope
      </a>
    </div>
  );
}
