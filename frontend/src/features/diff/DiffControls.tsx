import { CopyLinkButton } from '../../shared/components/CopyLinkButton';
import { FrameSearch } from '../../shared/components/FrameSearch';
import type { DiffResponse } from './api';
import { DIFF_MODES, type DiffMode, type DiffViewState } from './urlState';

const MODE_LABEL: Record<DiffMode, string> = {
  b: 'B coloured by change',
  a: 'A only: what vanished',
  side: 'Side by side',
};

const MODE_TITLE: Record<DiffMode, string> = {
  b: "B's flame graph: widths are B's weights, colour is the change from A",
  a: "A's flame graph: widths are A's weights, so frames gone in B are drawn (outlined)",
  side: 'A above B, both coloured by the change',
};

interface Props {
  view: DiffViewState;
  data: DiffResponse | undefined;
  onChange: (patch: Partial<DiffViewState>, push?: boolean) => void;
  onSwap: () => void;
}

/** What is compared (CPU or off-CPU, event or state, normalisation) and how it is shown. */
export function DiffControls({ view, data, onChange, onSwap }: Props) {
  const offcpu = view.source === 'off-cpu';
  const choices = data?.events ?? [];
  const current = offcpu ? view.state : (view.event ?? data?.event ?? null);

  return (
    <div className="filters diff-controls">
      <label className="field">
        <span>Compare</span>
        <select
          value={view.source}
          onChange={(e) => onChange({ source: e.target.value === 'off-cpu' ? 'off-cpu' : 'cpu', state: null, event: null })}
          data-testid="diff-source"
        >
          <option value="cpu">CPU samples</option>
          <option value="off-cpu">Off-CPU time (µs blocked)</option>
        </select>
      </label>
      <label className="field">
        <span>{offcpu ? 'Scheduler state' : 'Event'}</span>
        <select
          value={current ?? ''}
          onChange={(e) => onChange(offcpu ? { state: e.target.value || null } : { event: e.target.value || null })}
          disabled={choices.length === 0}
        >
          {offcpu ? <option value="">all states</option> : null}
          {!offcpu && current === null ? <option value="">most sampled</option> : null}
          {choices.map((c) => (
            <option key={c} value={c}>
              {offcpu ? `${c} (${STATE_NAMES[c] ?? 'state'})` : c}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Weights</span>
        <select value={view.normalize} onChange={(e) => onChange({ normalize: e.target.value === 'none' ? 'none' : 'total' })} data-testid="diff-normalize">
          <option value="total">Shares: A scaled to B’s total</option>
          <option value="none">Raw: no scaling</option>
        </select>
      </label>
      <div className="field">
        <span id="diff-mode-label">Show</span>
        <div className="segmented" role="radiogroup" aria-labelledby="diff-mode-label">
          {DIFF_MODES.map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={view.mode === m}
              className={`segmented__item${view.mode === m ? ' segmented__item--on' : ''}`}
              title={MODE_TITLE[m]}
              onClick={() => onChange({ mode: m })}
              data-testid={`mode-${m}`}
            >
              {MODE_LABEL[m]}
            </button>
          ))}
        </div>
      </div>
      <FrameSearch value={view.search} onCommit={(search) => onChange({ search })} testId="diff-search" className="diff-controls__search" />
      <div className="spacer" />
      <button type="button" className="btn" onClick={onSwap} disabled={view.a === null} data-testid="swap">
        Swap A and B
      </button>
      <CopyLinkButton />
    </div>
  );
}

const STATE_NAMES: Record<string, string> = {
  S: 'sleeping',
  D: 'uninterruptible, usually I/O',
  R: 'preempted, runnable',
  I: 'idle',
  T: 'stopped',
  t: 'traced',
  X: 'dead',
  Z: 'zombie',
  P: 'parked',
};
