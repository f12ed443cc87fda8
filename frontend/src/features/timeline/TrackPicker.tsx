import { useId } from 'react';
import { formatCount } from '../../shared/units';
import type { HostTracks, TrackInfo, TrackListing } from './api';

function detail(t: TrackInfo): string {
  switch (t.type) {
    case 'cpu':
      return `${formatCount(t.samples)} samples`;
    case 'offcpu':
      return `${formatCount(t.intervals)} intervals${t.unclosed ? `, ${formatCount(t.unclosed)} never closed` : ''}`;
    case 'events':
      return `${formatCount(t.count)} ${t.name === null ? `${t.kind} events` : 'calls'}`;
    case 'metric':
      return `${formatCount(t.points)} points${t.unit ? ` · ${t.unit}` : ''}${t.system ? ' · system' : ''}`;
  }
}

/** What a host lacks for a latency investigation, and what to upload to get it. */
function MissingHints({ host }: { host: HostTracks }) {
  const has = (type: TrackInfo['type'], kind?: string) =>
    host.tracks.some((t) => t.type === type && (kind === undefined || (t.type === 'events' && t.kind === kind)));
  const hints: string[] = [];
  const cpuSampled = host.tracks.some((t) => t.type === 'cpu' && t.origin === 'cpu');
  if (!cpuSampled) hints.push('no CPU samples — upload perf script output or the collector’s --cpu');
  if (!has('offcpu')) hints.push('no off-CPU time — upload a scheduler capture (perf sched record, then perf script)');
  if (!has('events', 'syscall')) hints.push('no syscall latencies — upload perf trace output');
  if (hints.length === 0) return null;
  return (
    <ul className="tl-picker__hints muted small">
      {hints.map((h) => (
        <li key={h}>{h}</li>
      ))}
    </ul>
  );
}

/** Checkboxes per host; every change rewrites `tracks=` in the URL. */
export function TrackPicker({
  listing,
  chosen,
  onChange,
  onDefaults,
}: {
  listing: TrackListing;
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  onDefaults: () => void;
}) {
  const baseId = useId();
  const selected = new Set(chosen);
  const toggle = (id: string, on: boolean) => {
    const next = listing.hosts.flatMap((h) => h.tracks.map((t) => t.id)).filter((t) => (t === id ? on : selected.has(t)));
    onChange(next);
  };
  return (
    <details className="tl-picker card" data-testid="track-picker">
      <summary>
        Tracks <span className="muted">({chosen.length} shown of {listing.hosts.reduce((n, h) => n + h.tracks.length, 0)})</span>
      </summary>
      <div className="tl-picker__actions">
        <button type="button" className="btn btn--small" onClick={onDefaults}>
          Defaults
        </button>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => onChange([])}>
          None
        </button>
      </div>
      {listing.hosts.map((host) => (
        <fieldset key={host.host} className="tl-picker__host">
          <legend>
            {host.host || '(no host)'}
            {host.unaligned ? <span className="clock-badge clock-badge--unaligned">unaligned</span> : null}
          </legend>
          {host.tracks.length > 0 ? <MissingHints host={host} /> : null}
          {host.tracks.length === 0 ? (
            <p className="muted small">
              Nothing to draw: {host.captures.length} capture{host.captures.length === 1 ? '' : 's'}, none parsed with times yet.
            </p>
          ) : null}
          {host.tracks.map((t, i) => {
            const id = `${baseId}-${host.host}-${i}`;
            return (
              <div key={t.id} className={`tl-picker__track${t.type === 'events' && t.name !== null ? ' tl-picker__track--sub' : ''}`}>
                <input id={id} type="checkbox" checked={selected.has(t.id)} onChange={(e) => toggle(t.id, e.currentTarget.checked)} />
                <label htmlFor={id}>
                  {t.label} <span className="muted small">{detail(t)}</span>
                </label>
              </div>
            );
          })}
        </fieldset>
      ))}
    </details>
  );
}
