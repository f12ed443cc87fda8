import { useId, useState } from 'react';
import type { Facets } from '../../api/types';
import { formatCount, formatDurationSeconds, formatPercent, share, spanSeconds } from '../../shared/units';
import { epochUsFromIso, type EpochUs } from '../../shared/selection';
import { hasStates, type FlameViewState } from './urlState';

interface Props {
  view: FlameViewState;
  facets: Facets | undefined;
  /** The event the server chose when the view names none. */
  currentEvent: string;
  /** Off-CPU and /proc stack sources: scheduler states present in the captures. */
  states: string[];
  onChange: (patch: Partial<FlameViewState>) => void;
}

/** An absolute time as seconds from the captures' start, to µs, for the range inputs. */
const offsetSeconds = (us: EpochUs | null, originUs: EpochUs | null): number | null =>
  us === null || originUs === null ? null : Math.round(us - originUs) / 1e6;

const processValue = (pid: number | null, comm: string): string => JSON.stringify([pid, comm]);

/** What the kernel's one-letter task states mean, for the state select. */
const STATE_NAMES: Record<string, string> = {
  S: 'sleeping',
  D: 'uninterruptible (I/O)',
  R: 'runnable (preempted)',
  I: 'idle',
  T: 'stopped',
  t: 'traced',
  X: 'dead',
  Z: 'zombie',
  P: 'parked',
};

export function FlameFilters({ view, facets, currentEvent, states, onChange }: Props) {
  const id = useId();
  const originUs = facets?.time_start ? epochUsFromIso(facets.time_start) : null;
  const events = facets?.events ?? [];
  const processes = [...(facets?.processes ?? [])].sort((a, b) => b.samples - a.samples);
  const totalSamples = processes.reduce((s, p) => s + p.samples, 0);
  const threads = (facets?.threads ?? [])
    .filter((t) => (view.pid !== null ? t.pid === view.pid : view.comm ? t.comm === view.comm : true))
    .sort((a, b) => b.samples - a.samples);
  const selectedProcess = view.pid !== null || view.comm ? processValue(view.pid, view.comm ?? '') : '';
  const known = processes.some((p) => processValue(p.pid, p.comm) === selectedProcess);

  return (
    <div className="filters" role="group" aria-label="Filters">
      {hasStates(view.source) ? (
        <label className="field">
          <span>State</span>
          <select value={view.state ?? ''} onChange={(e) => onChange({ state: e.target.value || null })}>
            <option value="">All states</option>
            {view.state && !states.includes(view.state) ? <option value={view.state}>{view.state}</option> : null}
            {states.map((st) => (
              <option key={st} value={st}>
                {st}
                {STATE_NAMES[st] ? ` — ${STATE_NAMES[st]}` : ''}
              </option>
            ))}
          </select>
        </label>
      ) : (
      <label className="field">
        <span>Event</span>
        <select
          value={view.event ?? currentEvent}
          onChange={(e) => onChange({ event: e.target.value || null })}
          disabled={events.length === 0}
        >
          {events.length === 0 ? <option value={currentEvent}>{currentEvent || 'default'}</option> : null}
          {events.map((ev) => (
            <option key={ev.name} value={ev.name}>
              {ev.name} ({formatCount(ev.samples)})
            </option>
          ))}
        </select>
      </label>
      )}

      <label className="field">
        <span>Process</span>
        <select
          value={selectedProcess}
          onChange={(e) => {
            if (!e.target.value) {
              onChange({ pid: null, comm: null, tid: null });
              return;
            }
            const [pid, comm] = JSON.parse(e.target.value) as [number | null, string];
            // A zoom into another process means nothing under a process filter; one into this process does.
            onChange({ pid, comm: comm || null, tid: null, zoom: view.zoom[0] === comm ? view.zoom : [] });
          }}
        >
          <option value="">all processes</option>
          {!known && selectedProcess ? (
            <option value={selectedProcess}>
              {view.comm ?? ''} {view.pid !== null ? `(pid ${view.pid})` : ''}
            </option>
          ) : null}
          {processes.map((p) => (
            <option key={processValue(p.pid, p.comm)} value={processValue(p.pid, p.comm)}>
              {p.comm}
              {p.pid !== null ? ` (pid ${p.pid})` : ''} — {formatPercent(share(p.samples, totalSamples))}
            </option>
          ))}
        </select>
      </label>

      <label className="field">
        <span>Thread</span>
        <select
          value={view.tid ?? ''}
          onChange={(e) => onChange({ tid: e.target.value === '' ? null : Number(e.target.value) })}
          disabled={threads.length === 0 && view.tid === null}
        >
          <option value="">all threads</option>
          {view.tid !== null && !threads.some((t) => t.tid === view.tid) ? <option value={view.tid}>tid {view.tid}</option> : null}
          {/* A thread keeps its tid across exec under a new comm, so the comm is part of the key. */}
          {threads
            .filter((t) => t.tid !== null)
            .map((t) => (
              <option key={JSON.stringify([t.pid, t.tid, t.comm])} value={t.tid ?? ''}>
                tid {t.tid} {t.comm} ({formatCount(t.samples)})
              </option>
            ))}
        </select>
      </label>

      <TimeRange
        key={`${view.fromUs ?? ''}/${view.toUs ?? ''}/${facets?.time_start ?? ''}`}
        id={id}
        start={offsetSeconds(view.fromUs, originUs)}
        end={offsetSeconds(view.toUs, originUs)}
        span={spanSeconds(facets?.time_start ?? null, facets?.time_end ?? null)}
        onApply={(start, end) =>
          onChange({
            fromUs: start === null || originUs === null ? null : originUs + Math.round(start * 1e6),
            toUs: end === null || originUs === null ? null : originUs + Math.round(end * 1e6),
          })
        }
      />
    </div>
  );
}

function parseSeconds(text: string): number | null | 'bad' {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : 'bad';
}

function TimeRange(props: {
  id: string;
  start: number | null;
  end: number | null;
  span: number | null;
  onApply: (start: number | null, end: number | null) => void;
}) {
  const { id, span, onApply } = props;
  const [start, setStart] = useState(props.start === null ? '' : String(props.start));
  const [end, setEnd] = useState(props.end === null ? '' : String(props.end));
  const s = parseSeconds(start);
  const e = parseSeconds(end);
  const invalid = s === 'bad' || e === 'bad' || (typeof s === 'number' && typeof e === 'number' && e <= s);
  const dirty = start !== (props.start === null ? '' : String(props.start)) || end !== (props.end === null ? '' : String(props.end));
  const disabled = span === null;
  return (
    <form
      className="field time-range"
      onSubmit={(ev) => {
        ev.preventDefault();
        if (s === 'bad' || e === 'bad' || (s !== null && e !== null && e <= s)) return;
        onApply(s, e);
      }}
      title={disabled ? 'These captures carry no timestamps' : undefined}
    >
      <span id={`${id}-range`}>
        Time range, s from start{span !== null ? ` (capture spans ${formatDurationSeconds(span)})` : ''}
      </span>
      <div className="row" role="group" aria-labelledby={`${id}-range`}>
        <input
          aria-label="Start, seconds from capture start"
          inputMode="decimal"
          placeholder="0"
          value={start}
          disabled={disabled}
          onChange={(ev) => setStart(ev.target.value)}
          className={s === 'bad' ? 'invalid' : undefined}
        />
        <span className="muted">–</span>
        <input
          aria-label="End, seconds from capture start"
          inputMode="decimal"
          placeholder={span !== null ? span.toFixed(1) : 'end'}
          value={end}
          disabled={disabled}
          onChange={(ev) => setEnd(ev.target.value)}
          className={e === 'bad' ? 'invalid' : undefined}
        />
        <button type="submit" className="btn btn--small" disabled={disabled || invalid || !dirty}>
          Apply
        </button>
        {props.start !== null || props.end !== null ? (
          <button type="button" className="btn btn--small btn--ghost" onClick={() => onApply(null, null)}>
            Clear
          </button>
        ) : null}
      </div>
    </form>
  );
}
