import { useId, useState } from 'react';
import type { Capture } from '../../api/types';
import { isCaptureClock } from '../../shared/captureClock';
import { formatWithin, instantFromText, instantText, isoFromEpochUs, type EpochUs } from '../../shared/selection';
import { formatLocalTime } from '../../shared/units';
import { byHost, describeSide, isComparable, sideCaptureIds, type Preset } from './sides';
import type { SideSelection } from './urlState';
import '../../shared/components/SelectionChips.css';

interface Props {
  label: 'A' | 'B';
  title: string;
  side: SideSelection;
  captures: readonly Capture[];
  onChange: (side: SideSelection) => void;
  /** A only: forget the baseline. */
  onClear?: () => void;
}

/** One side's selection: captures by host, a UTC time range, a process or thread name. */
export function SideEditor({ label, title, side, captures, onChange, onClear }: Props) {
  // URL changes render in a transition: until this side comes back from the URL, show the ticks
  // just made, so a checkbox never flips back for a moment.
  const [ticked, setTicked] = useState<{ of: SideSelection; ids: number[] } | null>(null);
  const ids = ticked?.of === side ? ticked.ids : sideCaptureIds(side, captures);
  const chosen = new Set(ids);
  const prefix = label.toLowerCase();
  const toggle = (toggled: number[], on: boolean) => {
    const next = new Set(chosen);
    for (const id of toggled) {
      if (on) next.add(id);
      else next.delete(id);
    }
    const sorted = [...next].sort((x, y) => x - y);
    setTicked({ of: side, ids: sorted });
    onChange({ ...side, hosts: [], captures: sorted });
  };
  return (
    <section className="diff-side card" aria-labelledby={`diff-side-${prefix}`} data-testid={`side-${prefix}`}>
      <header className="diff-side__head">
        <h2 id={`diff-side-${prefix}`} className="diff-side__title">
          <span className={`diff-side__badge diff-side__badge--${prefix}`}>{label}</span> {title}
        </h2>
        {onClear ? (
          <button type="button" className="btn btn--small btn--ghost" onClick={onClear}>
            Clear {label}
          </button>
        ) : null}
      </header>
      <p className="diff-side__summary small" data-testid={`side-${prefix}-summary`}>
        {describeSide(side, ids)}
      </p>
      <fieldset className="diff-side__captures">
        <legend className="visually-hidden">Captures of {label}</legend>
        {captures.length === 0 ? <p className="muted small">This incident has no captures yet.</p> : null}
        {byHost(captures).map((group) => {
          const usable = group.captures.filter(isComparable).map((c) => c.id);
          const all = usable.length > 0 && usable.every((id) => chosen.has(id));
          // An empty list means every capture (the shared selection's rule): never untick the last one.
          const holdsAll = ids.length > 0 && ids.every((id) => usable.includes(id));
          return (
            <div key={group.host ?? ''} className="diff-side__host">
              <label className="diff-side__host-name">
                <input
                  type="checkbox"
                  checked={all}
                  disabled={usable.length === 0 || (all && holdsAll)}
                  title={all && holdsAll ? `${label} needs at least one capture: tick another first` : undefined}
                  onChange={(e) => toggle(usable, e.target.checked)}
                  aria-label={`${label}: every capture of ${group.host ?? 'no host'}`}
                />
                <span className="mono">{group.host ?? 'no host'}</span>
              </label>
              <ul className="diff-side__list">
                {group.captures.map((c) => (
                  <li key={c.id}>
                    <label
                      title={
                        !isComparable(c)
                          ? `not parsed (${c.status})`
                          : ids.length === 1 && chosen.has(c.id)
                            ? `${label} needs at least one capture: tick another first`
                            : undefined
                      }
                    >
                      <input
                        type="checkbox"
                        checked={chosen.has(c.id)}
                        disabled={!isComparable(c) || (ids.length === 1 && chosen.has(c.id))}
                        onChange={(e) => toggle([c.id], e.target.checked)}
                        aria-label={`${label}: capture #${c.id} ${c.filename}`}
                      />
                      <span className="mono">#{c.id}</span> <span className="one-line diff-side__file">{c.filename}</span>
                      <span className="muted small">{c.kind ?? c.format ?? ''}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </fieldset>
      <div className="diff-side__fields">
        <TimeField label={`${label} from (UTC)`} value={side.fromUs} onChange={(fromUs) => onChange({ ...side, fromUs })} />
        <TimeField label={`${label} to (UTC)`} value={side.toUs} onChange={(toUs) => onChange({ ...side, toUs })} />
        <TextField label={`${label} process / thread name`} value={side.comm ?? ''} onChange={(comm) => onChange({ ...side, comm: comm || null })} />
      </div>
      <Chips side={side} onChange={onChange} />
    </section>
  );
}

function Chips({ side, onChange }: { side: SideSelection; onChange: (side: SideSelection) => void }) {
  const chips: { key: string; text: string; clear: SideSelection }[] = [];
  if (side.pid !== null) chips.push({ key: 'pid', text: `pid ${side.pid}`, clear: { ...side, pid: null } });
  if (side.tid !== null) chips.push({ key: 'tid', text: `tid ${side.tid}`, clear: { ...side, tid: null } });
  if (side.within) {
    chips.push({
      key: 'within',
      text: `${side.within.outside ? 'outside' : 'within'} ${formatWithin(side.within).replace('!', '')} µs of each second`,
      clear: { ...side, within: null },
    });
  }
  if (side.hosts.length > 0) chips.push({ key: 'hosts', text: `hosts ${side.hosts.join(', ')}`, clear: { ...side, hosts: [] } });
  if (chips.length === 0) return null;
  return (
    <div className="selection-chips">
      {chips.map((c) => (
        <span key={c.key} className="chip">
          {c.text}
          <button type="button" className="chip__clear" aria-label={`Remove ${c.text}`} onClick={() => onChange(c.clear)}>
            ×
          </button>
        </span>
      ))}
    </div>
  );
}

/** A UTC ISO time, committed on Enter or leaving the field; the local time is shown beside it. */
function TimeField({ label, value, onChange }: { label: string; value: EpochUs | null; onChange: (us: EpochUs | null) => void }) {
  const id = useId();
  const shown = value === null ? '' : instantText(value);
  const [draft, setDraft] = useState(shown);
  const [seen, setSeen] = useState(shown);
  if (shown !== seen) {
    setSeen(shown);
    setDraft(shown);
  }
  const parsed = draft.trim() === '' ? null : instantFromText(draft);
  const invalid = draft.trim() !== '' && parsed === null;
  const commit = () => {
    if (!invalid && parsed !== value) onChange(parsed);
  };
  return (
    <div className="field diff-side__time">
      <label htmlFor={id}>
        <span>{label}</span>
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        spellCheck={false}
        placeholder="2026-11-21T08:00:00Z"
        className={invalid ? 'invalid mono' : 'mono'}
        value={draft}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(shown);
        }}
      />
      <small id={`${id}-hint`} className={invalid ? 'field-error' : 'muted'}>
        {invalid
          ? 'ISO 8601 with a zone, e.g. 2026-11-21T08:00:00Z (or capture-clock seconds, 13061.5s)'
          : parsed !== null
            ? isCaptureClock(parsed)
              ? 'on the capture clock (not aligned to wall-clock time)'
              : `local ${formatLocalTime(isoFromEpochUs(parsed))}`
            : 'empty = from the captures’ bounds'}
      </small>
    </div>
  );
}

function TextField({ label, value, onChange }: { label: string; value: string; onChange: (text: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setDraft(value);
  }
  const commit = () => {
    if (draft.trim() !== value) onChange(draft.trim());
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        <span>{label}</span>
      </label>
      <input
        id={id}
        type="text"
        spellCheck={false}
        placeholder="any"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
    </div>
  );
}

/** What the page shows for A before it has a baseline. */
export function BaselinePrompt({ presets, onPick, onEdit }: { presets: Preset[]; onPick: (a: SideSelection) => void; onEdit: () => void }) {
  return (
    <section className="diff-side diff-side--empty card" aria-labelledby="diff-side-a" data-testid="side-a">
      <header className="diff-side__head">
        <h2 id="diff-side-a" className="diff-side__title">
          <span className="diff-side__badge diff-side__badge--a">A</span> baseline
        </h2>
      </header>
      <p className="diff-side__prompt">Pick the baseline: another host, an earlier time range, the rest of each second…</p>
      <div className="row">
        {presets.map((p) => (
          <button key={p.id} type="button" className="btn" onClick={() => onPick(p.a)} data-testid={`preset-${p.id}`}>
            {p.label}
          </button>
        ))}
        <button type="button" className="btn btn--primary" onClick={onEdit} data-testid="edit-a">
          Choose A…
        </button>
      </div>
      <p className="muted small">Choose A… starts from a copy of B: untick captures, change the time range or the process.</p>
    </section>
  );
}
