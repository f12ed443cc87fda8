import type { Capture } from '../../api/types';
import { CaptureRow } from './CaptureRow';
import { isReady } from './captureStatus';

interface Props {
  captures: Capture[];
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], selected: boolean) => void;
  onReparse: (id: number) => void;
  reparsingId: number | null;
}

export function CaptureTable({ captures, selected, onSelect, onReparse, reparsingId }: Props) {
  const readyIds = captures.filter(isReady).map((c) => c.id);
  const allSelected = readyIds.length > 0 && readyIds.every((id) => selected.has(id));
  return (
    <table className="table captures" data-testid="captures-table">
      <thead>
        <tr>
          <th className="shrink">
            <input
              type="checkbox"
              aria-label="Select all ready captures"
              disabled={readyIds.length === 0}
              checked={allSelected}
              onChange={(e) => onSelect(readyIds, e.target.checked)}
            />
          </th>
          <th>File</th>
          <th>Host</th>
          <th>Format</th>
          <th>Status</th>
          <th className="num">Samples</th>
          <th className="num">Span</th>
          <th className="num">Size</th>
          <th>Issues</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {captures.map((c) => (
          <CaptureRow
            key={c.id}
            capture={c}
            selected={selected.has(c.id)}
            onSelect={(on) => onSelect([c.id], on)}
            onReparse={() => onReparse(c.id)}
            reparsing={reparsingId === c.id}
          />
        ))}
      </tbody>
    </table>
  );
}
