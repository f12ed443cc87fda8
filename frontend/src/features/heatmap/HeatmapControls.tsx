import type { Capture } from '../../api/types';
import { formatCount } from '../../shared/units';
import type { HeatmapStream, StreamInfo, ValueKind } from './api';
import { formatOffset } from './grid';
import { STREAM_LABELS, type StreamSource } from './sources';
import { ROW_CHOICES, type HeatmapView } from './urlState';

interface Props {
  view: HeatmapView;
  stream: HeatmapStream | null;
  sources: StreamSource[];
  /** Names (events, syscalls, states) of the chosen stream in the captures shown. */
  info: StreamInfo | undefined;
  /** The incident's parsed captures (empty when the URL names captures without an incident). */
  captures: Capture[];
  /** Captures the URL chose; empty = every capture with the stream. */
  chosen: number[];
  shown: number[];
  /** The event the server drew when none is chosen. */
  currentName: string | null;
  onView: (patch: Partial<HeatmapView>) => void;
  onCaptures: (ids: number[]) => void;
}

const STATE_NAMES: Record<string, string> = {
  S: 'sleeping',
  D: 'uninterruptible (I/O)',
  R: 'runnable (preempted)',
  'R+': 'runnable (preempted)',
  I: 'idle',
  T: 'stopped',
  X: 'dead',
  Z: 'zombie',
  P: 'parked',
};

const captureLabel = (c: Capture): string => `#${c.id} ${c.filename}${c.host ? ` (${c.host})` : ''}`;

export function HeatmapControls({ view, stream, sources, info, captures, chosen, shown, currentName, onView, onCaptures }: Props) {
  const offCpu = stream === 'off-cpu';
  const names = info?.names ?? [];
  const nameValue = (offCpu ? view.state : view.name) ?? (stream === 'samples' ? (currentName ?? '') : '');
  const durationOk = info === undefined || (nameValue ? (names.find((n) => n.name === nameValue)?.durations ?? info.durations) : info.durations);
  const rowChoices: number[] = ROW_CHOICES.includes(view.rows as (typeof ROW_CHOICES)[number]) ? [...ROW_CHOICES] : [...ROW_CHOICES, view.rows].sort((a, b) => a - b);
  const toggle = (id: number, on: boolean) => {
    const base = chosen.length > 0 ? chosen : shown;
    const next = on ? [...base, id] : base.filter((c) => c !== id);
    onCaptures(next.sort((a, b) => a - b));
  };

  return (
    <div className="heatmap-controls">
      <div className="filters" role="group" aria-label="Heatmap settings">
        <label className="field">
          <span>Stream</span>
          <select
            value={stream ?? ''}
            onChange={(e) => onView({ stream: e.target.value as HeatmapStream, name: null, state: null })}
            disabled={sources.length === 0}
          >
            {stream !== null && !sources.some((s) => s.stream === stream) ? <option value={stream}>{STREAM_LABELS[stream]} (none)</option> : null}
            {sources.map((s) => (
              <option key={s.stream} value={s.stream}>
                {STREAM_LABELS[s.stream]} ({formatCount(s.records)})
              </option>
            ))}
          </select>
        </label>

        {stream !== null ? (
          <label className="field">
            <span>{stream === 'samples' ? 'Event' : offCpu ? 'State' : 'Name'}</span>
            <select
              value={nameValue}
              onChange={(e) => onView(offCpu ? { state: e.target.value || null } : { name: e.target.value || null })}
              disabled={names.length === 0}
            >
              {stream !== 'samples' ? <option value="">All {offCpu ? 'states' : 'names'}</option> : null}
              {nameValue && !names.some((n) => n.name === nameValue) ? <option value={nameValue}>{nameValue}</option> : null}
              {names.map((n) => (
                <option key={n.name} value={n.name}>
                  {n.name}
                  {offCpu && STATE_NAMES[n.name] ? ` — ${STATE_NAMES[n.name] ?? ''}` : ''} ({formatCount(n.count)})
                </option>
              ))}
            </select>
          </label>
        ) : null}

        <label className="field">
          <span>Rows per second</span>
          <select value={view.rows} onChange={(e) => onView({ rows: Number(e.target.value) })}>
            {rowChoices.map((n) => (
              <option key={n} value={n}>
                {n} × {formatOffset(1_000_000 / n)}
              </option>
            ))}
          </select>
        </label>

        <label className="field">
          <span>Colour by</span>
          <select value={view.value} onChange={(e) => onView({ value: e.target.value as ValueKind })}>
            <option value="count">Count</option>
            <option value="duration" disabled={!durationOk && view.value !== 'duration'}>
              Summed duration (ms){durationOk ? '' : ' — not timed'}
            </option>
          </select>
        </label>
      </div>

      {captures.length > 1 ? (
        <fieldset className="heatmap-captures">
          <legend className="small muted">
            Captures {chosen.length === 0 ? '(all with this stream)' : ''}{' '}
            {chosen.length > 0 ? (
              <button type="button" className="btn btn--ghost btn--small" onClick={() => onCaptures([])}>
                All with this stream
              </button>
            ) : null}
          </legend>
          {captures.map((c) => {
            const has = stream === null || sources.find((s) => s.stream === stream)?.captures.includes(c.id) === true;
            return (
              <label key={c.id} className={`heatmap-capture${has ? '' : ' muted'}`} title={has ? undefined : 'This capture has no records of this stream'}>
                <input type="checkbox" checked={shown.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
                <span className="truncate">{captureLabel(c)}</span>
              </label>
            );
          })}
        </fieldset>
      ) : null}
    </div>
  );
}
