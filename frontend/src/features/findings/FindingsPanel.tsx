import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApiError } from '../../api/http';
import type { Capture } from '../../api/types';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { isActive } from '../captures/captureStatus';
import { DayBeforeButton } from '../watch/DayBeforeButton';
import { BaselinePicker } from './BaselinePicker';
import { FindingItem } from './FindingItem';
import { orderFindings } from './ordering';
import { findingsPollMs, panelStatus } from './panelStatus';
import { findingsQuery, useSetBaseline } from './queries';
import './findings.css';

interface Props {
  incident: number;
  /** The incident's captures, as the page already has them: hosts for the picker, parsing for the state. */
  captures: readonly Capture[];
}

/** The incident's findings: named causes with their evidence, at the top of the incident page. */
export function FindingsPanel({ incident, captures }: Props) {
  const parsing = captures.filter(isActive).length;
  // While captures parse, ask again: their results change the findings even if the last answer was final.
  const query = useQuery({ ...findingsQuery(incident), refetchInterval: (q) => (parsing > 0 ? 2000 : findingsPollMs(q.state.data)) });
  const baseline = useSetBaseline(incident);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const report = query.data;
  const findings = useMemo(() => orderFindings(report?.findings ?? []), [report]);
  const hosts = useMemo(() => {
    const all = new Set<string>();
    for (const c of captures) if (c.host !== null) all.add(c.host);
    for (const h of [...(report?.hosts ?? []), ...(report?.baseline_hosts ?? [])]) all.add(h);
    return [...all].sort((a, b) => a.localeCompare(b));
  }, [captures, report]);
  const status = panelStatus(report, captures.length, parsing);
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const missing = query.error instanceof ApiError && query.error.status === 404;

  return (
    <section className="stack stack--tight findings" aria-labelledby="findings-title" id="findings" data-testid="findings-panel" data-state={report?.state ?? 'loading'}>
      <div className="section-head">
        <h2 id="findings-title">Findings</h2>
        {status.live ? (
          <span className="muted small live-dot" data-testid="findings-live">
            {status.live}
          </span>
        ) : null}
        {report?.state === 'ready' && report.computed_at ? (
          <span className="muted small">
            computed <Time iso={report.computed_at} />
            {report.duration_ms !== null ? ` in ${report.duration_ms.toFixed(1)} ms` : ''}
          </span>
        ) : null}
        <div className="spacer" />
        {report ? <BaselinePicker
            hosts={hosts}
            baseline={baseline.isPending ? baseline.variables : report.baseline_hosts}
            busy={baseline.isPending}
            onChange={(h) => baseline.mutate(h)}
          /> : null}
      </div>
      {report ? <DayBeforeButton incident={incident} /> : null}
      {missing ? (
        <p className="muted small">This server does not compute findings.</p>
      ) : query.isError ? (
        <ErrorBanner title="Could not load the findings." error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {baseline.isError ? <ErrorBanner title="Could not set the baseline." error={baseline.error} /> : null}
      {query.isPending ? <p className="muted small">Loading findings…</p> : null}
      {report && status.title ? (
        <EmptyState title={status.title}>
          {report.notes.length > 0 && captures.length > 0 ? (
            <ul className="findings__notes small" data-testid="findings-notes">
              {report.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </EmptyState>
      ) : null}
      {findings.length > 0 ? (
        <>
          <ul className="findings__list" data-findings-list data-testid="findings-list">
            {findings.map((f) => (
              <FindingItem key={f.id} incident={incident} finding={f} open={open.has(f.id)} onToggle={() => toggle(f.id)} />
            ))}
          </ul>
          {report && report.notes.length > 0 ? (
            <ul className="findings__notes muted small" data-testid="findings-notes">
              {report.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
          <p className="muted small">↑ ↓ move between findings · Enter or Space opens one</p>
        </>
      ) : null}
    </section>
  );
}
