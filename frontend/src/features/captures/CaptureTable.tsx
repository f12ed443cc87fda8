import type { Capture } from '../../api/types';
import { CaptureRow, COLUMNS } from './CaptureRow';
import { isReady } from './captureStatus';
import { groupByHost, hasSamples } from './captureView';

interface Props {
  captures: Capture[];
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], selected: boolean) => void;
  onReparse: (id: number) => void;
  reparsingId: number | null;
}

export function CaptureTable({ captures, selected, onSelect, onReparse, reparsingId }: Props) {
  const readyIds = captures.filter((c) => isReady(c) && hasSamples(c)).map((c) => c.id);
  const allSelected = readyIds.length > 0 && readyIds.every((id) => selected.has(id));
  return (
    <table className="table captures" data-testid="captures-table">
      <thead>
        <tr>
          <th className="shrink">
            <input
              type="checkbox"
              aria-label="Select all CPU-sample captures"
              disabled={readyIds.length === 0}
              checked={allSelected}
              onChange={(e) => onSelect(readyIds, e.target.checked)}
            />
          </th>
          <th>File</th>
          <th>Kind / format</th>
          <th>Status</th>
          <th>Records</th>
          <th>Time span</th>
          <th className="num">Size</th>
          <th>Issues</th>
          <th />
        </tr>
      </thead>
      {groupByHost(captures).map((g) => (
        <tbody key={g.host ?? ''} data-testid="host-group">
          <tr className="host-row">
            <th colSpan={COLUMNS} scope="rowgroup">
              {g.host === null ? <span className="muted">no host</span> : <span className="mono">{g.host}</span>}
              <span className="muted small"> · {g.captures.length === 1 ? '1 capture' : `${g.captures.length} captures`}</span>
            </th>
          </tr>
          {g.captures.map((c) => (
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
      ))}
    </table>
  );
}
