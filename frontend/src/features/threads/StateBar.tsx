import { formatDurationNs, formatPercent } from '../../shared/units';
import { STATES, type ThreadRow, type ThreadState } from './api';
import { STATE_COLORS, STATE_LABELS } from './threadsView';

function partLabel(thread: ThreadRow, s: ThreadState): string {
  const ns = thread.states[s];
  const share = thread.wall_ns > 0 ? ns / thread.wall_ns : 0;
  const inferred = thread.inferred[s];
  const tail = inferred > 0 ? `, ${formatDurationNs(inferred)} of it inferred (no closing event)` : '';
  return `${STATE_LABELS[s]}: ${formatDurationNs(ns)} (${formatPercent(share)})${tail}`;
}

/**
 * One thread's time as a stacked bar; each part is a button that opens that state's details. The
 * inferred part of a state (waits that end where the thread was next seen running) is hatched.
 */
export function StateBar({ thread, onPick, picked }: { thread: ThreadRow; onPick?: (s: ThreadState) => void; picked: ThreadState | null }) {
  const wall = thread.wall_ns;
  return (
    <div className="state-bar" role="group" aria-label={`Time in each state, ${thread.comm} ${thread.tid}`}>
      {STATES.filter((s) => thread.states[s] > 0).map((s) => {
        const share = wall > 0 ? thread.states[s] / wall : 0;
        const label = partLabel(thread, s);
        const style = { width: `${share * 100}%`, background: STATE_COLORS[s] };
        const inferred = thread.states[s] > 0 ? thread.inferred[s] / thread.states[s] : 0;
        const hatch = inferred > 0 ? <span className="state-bar__inferred" style={{ width: `${inferred * 100}%` }} data-testid="inferred-part" /> : null;
        return onPick ? (
          <button
            key={s}
            type="button"
            className={`state-bar__part${picked === s ? ' state-bar__part--picked' : ''}`}
            style={style}
            title={label}
            aria-label={label}
            data-state={s}
            onClick={() => onPick(s)}
          >
            {hatch}
          </button>
        ) : (
          <span key={s} className="state-bar__part" style={style} title={label} data-state={s}>
            {hatch}
          </span>
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
      <span title="No event closed these waits: they end where the thread was next seen running (its next sample, switch-out or event it caused)">
        <span className="state-legend__swatch state-legend__swatch--inferred" />
        Inferred end
      </span>
    </div>
  );
}
