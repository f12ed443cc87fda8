/**
 * "What does this window show that the time before it does not?": the findings of the timeline's
 * selected range against the rest of the captures' time. The server computes them on request, in up
 * to a few seconds, so they are asked for with a button (or `f`), never on every brush movement; an
 * answer whose window has since moved is marked stale rather than shown as the new range's.
 */
import { skipToken, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useShortcuts } from '../../shared/hooks/useShortcuts';
import { keyLabels } from '../../shared/shortcuts';
import type { Selection } from '../../shared/selection';
import { formatDurationNs } from '../../shared/units';
import { findingsQuery } from './queries';
import { FindingItem } from './FindingItem';
import { orderFindings } from './ordering';
import { WINDOW_FINDINGS_SHORTCUTS } from './shortcuts';
import { getWindowFindings, type WindowFindings as WindowAnswer, type WindowRequest, type WindowSide } from './windowApi';
import { comparedText, detectorsRan, noPatternText, staleReason, windowRequest } from './windowStatus';
import './findings.css';

/** The ask's key, as the button's title and aria-keyshortcuts name it. */
const SHORTCUT = WINDOW_FINDINGS_SHORTCUTS.shortcuts.flatMap(keyLabels).join(' ');

interface Props {
  incident: number;
  selection: Selection;
}

/** Shown while the selection has a time range; keeps its last answer while it has none. */
export function WindowFindings({ incident, selection }: Props) {
  const [side, setSide] = useState<WindowSide>('before');
  const [asked, setAsked] = useState<WindowRequest | null>(null);
  const current = useMemo(() => windowRequest(incident, selection, side), [incident, selection, side]);
  const query = useQuery({
    queryKey: ['incidents', incident, 'findings', 'window', asked],
    queryFn: asked ? ({ signal }) => getWindowFindings(asked, signal) : skipToken,
    staleTime: Infinity,
    retry: false,
  });
  const stale = asked ? staleReason(asked, current) : null;

  const ask = useRef<() => void>(() => undefined);
  useEffect(() => {
    ask.current = () => {
      if (!current || query.isFetching) return;
      if (asked && staleReason(asked, current) === null) void query.refetch();
      else setAsked(current);
    };
  });
  // Offered (and listed by the help) while there is a window to ask about.
  useShortcuts(WINDOW_FINDINGS_SHORTCUTS, { ask: current ? () => ask.current() : null });

  const sideId = useId();
  if (!current) return null;
  const answer = query.data;
  return (
    <section className="window-findings stack stack--tight" aria-label="Findings in this window" data-testid="window-findings" data-stale={stale ? 'true' : 'false'}>
      <div className="window-findings__ask">
        <button
          type="button"
          className="btn btn--small btn--primary"
          onClick={() => ask.current()}
          disabled={query.isFetching}
          title={`Name what this window shows that the rest of the time does not (${SHORTCUT})`}
          aria-keyshortcuts={SHORTCUT}
          data-testid="window-findings-ask"
        >
          Find causes in this window
        </button>
        <label className="small" htmlFor={sideId}>
          compare with
        </label>
        <select id={sideId} value={side} onChange={(e) => setSide(e.currentTarget.value === 'after' ? 'after' : 'before')} data-testid="window-findings-side">
          <option value="before">the time before</option>
          <option value="after">the time after</option>
        </select>
        <span className="small" aria-live="polite" data-testid="window-findings-status">
          {query.isFetching ? (
            <span className="muted live-dot">Reading the window…</span>
          ) : stale && (answer || query.isError) ? (
            <strong className="window-findings__stale">{stale}</strong>
          ) : null}
        </span>
      </div>
      {query.isError && !query.isFetching ? <ErrorBanner title="Could not read the window." error={query.error} /> : null}
      {answer ? <WindowAnswerView key={JSON.stringify(asked)} incident={incident} answer={answer} stale={stale !== null} /> : null}
    </section>
  );
}

function WindowAnswerView({ incident, answer, stale }: { incident: number; answer: WindowAnswer; stale: boolean }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const findings = useMemo(() => orderFindings(answer.findings), [answer]);
  // The window's answer does not say how many detectors ran; the incident's stored findings do.
  const empty = findings.length === 0;
  const stored = useQuery({ ...findingsQuery(incident), enabled: empty && detectorsRan(answer.notes) === null, refetchInterval: false });
  const detectors = detectorsRan(answer.notes) ?? detectorsRan(stored.data?.notes ?? []);
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className={`window-findings__answer${stale ? ' window-findings__answer--stale' : ''}`} aria-disabled={stale || undefined}>
      <p className="small" data-testid="window-findings-compared">
        {comparedText(answer)}
        <span className="muted"> · read in {formatDurationNs(answer.duration_ms * 1e6)}</span>
      </p>
      {answer.notes.length > 0 ? (
        <ul className="findings__notes muted small" data-testid="window-findings-notes">
          {answer.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {empty ? (
        <EmptyState title={noPatternText(detectors)} />
      ) : (
        <ul className="findings__list" data-findings-list data-testid="window-findings-list">
          {findings.map((f) => (
            <FindingItem key={f.id} incident={incident} finding={f} open={open.has(f.id)} onToggle={() => toggle(f.id)} verdicts={false} />
          ))}
        </ul>
      )}
    </div>
  );
}
