import type { Selection } from '../selection';
import { describeRange, describeWithin } from '../selectionText';
import './SelectionChips.css';

/** The time narrowing every view shares, each part removable; nothing when the selection is whole. */
export function SelectionChips({ selection, onClear }: { selection: Selection; onClear: (patch: Partial<Selection>) => void }) {
  const range = describeRange(selection.fromUs, selection.toUs);
  if (range === null && selection.within === null) return null;
  return (
    <div className="selection-chips" data-testid="selection-chips">
      {range !== null ? (
        <span className="chip" data-testid="selection-range">
          {range}
          <button type="button" className="chip__clear" aria-label="Clear the time range" onClick={() => onClear({ fromUs: null, toUs: null })}>
            ×
          </button>
        </span>
      ) : null}
      {selection.within !== null ? (
        <span className="chip" data-testid="selection-within">
          {describeWithin(selection.within)}
          <button type="button" className="chip__clear" aria-label="Clear the within-second band" onClick={() => onClear({ within: null })}>
            ×
          </button>
        </span>
      ) : null}
    </div>
  );
}
