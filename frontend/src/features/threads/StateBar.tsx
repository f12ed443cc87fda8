import { formatDurationNs, formatPercent } from '../../shared/units';
import { STATES, type ThreadRow, type ThreadState } from './api';
import { STATE_COLORS, STATE_LABELS } from './threadsView';

/** One thread's time as a stacked bar; each part is a button that opens that state's details. */
export function StateBar({ thread, onPick, picked }: { thread: ThreadRow; onPick?: (s: ThreadState) => void; picked: ThreadState | null }) {
  const wall = thread.wall_ns;
  return (
    <div className="state-bar" role="group" aria-label={`Time in each state, ${thread.comm} ${thread.tid}`}>
      {STATES.filter((s) => thread.states[s] > 0).map((s) => {
        const share = wall > 0 ? thread.states[s] / wall : 0;
        const label = `${STATE_LABELS[s]}: ${formatDurationNs(thread.states[s])} (${formatPercent(share)})`;
        return onPick ? (
          <button
            key={s}
            type="button"
            className={`state-bar__part${picked === s ? ' state-bar__part--picked' : ''}`}
            style={{ width: `${share * 100}%`, background: STATE_COLORS[s] }}
            title={label}
            aria-label={label}
            data-state={s}
            onClick={() => onPick(s)}
          />
        ) : (
          <span key={s} className="state-bar__part" style={{ width: `${share * 100}%`, background: STATE_COLORS[s] }} title={label} data-state={s} />
        );
      })}
    </div>
  );
}

export function StateLegend() {
  return (
    <div className="state-legend small">
      {STATES.map((s) => (
        <span key={s}>
          <span className="state-legend__swatch" style={{ background: STATE_COLORS[s] }} />
          {STATE_LABELS[s]}
        </span>
      ))}
    </div>
  );
}
