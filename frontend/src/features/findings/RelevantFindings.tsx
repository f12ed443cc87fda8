import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { consolePath } from './evidence';
import { findingsQuery } from './queries';
import { relevanceText, relevantFindings, viewScope, type ShownThread } from './relevance';
import { SeverityTag } from './SeverityTag';
import './findings.css';

interface Props {
  incident: number | null;
  /** The hosts on screen. */
  hosts: readonly string[];
  /** The threads on screen, when the view lists threads. */
  threads?: readonly ShownThread[];
}

const NO_THREADS: readonly ShownThread[] = [];

/** A collapsed strip on a view: the incident's findings that concern the hosts or threads it shows. */
export function RelevantFindings({ incident, hosts, threads = NO_THREADS }: Props) {
  const [open, setOpen] = useState(false);
  const { data } = useQuery({ ...findingsQuery(incident ?? 0), enabled: incident !== null });
  const relevant = useMemo(() => (data ? relevantFindings(data.findings, viewScope(hosts, threads)) : null), [data, hosts, threads]);
  if (incident === null || !relevant || relevant.findings.length === 0) return null;
  return (
    <div className="relevant-findings" data-testid="relevant-findings">
      <button type="button" className="relevant-findings__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> {relevanceText(relevant)}
      </button>
      {open ? (
        <ul className="relevant-findings__list">
          {relevant.findings.map((f) => {
            const view = consolePath(f.view);
            return (
              <li key={f.id}>
                <SeverityTag severity={f.severity} /> <Link to={`/incidents/${incident}#finding-${f.id}`}>{f.title}</Link>{' '}
                <span className="muted small">{f.summary}</span>
                {view ? (
                  <>
                    {' '}
                    <Link className="btn btn--small" to={view}>
                      Open evidence
                    </Link>
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <span className="relevant-findings__titles muted small">
          {' '}
          · {relevant.findings.map((f) => f.title).join(' · ')}
        </span>
      )}
    </div>
  );
}
