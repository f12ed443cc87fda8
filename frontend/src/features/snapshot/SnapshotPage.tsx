import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { getCapture, getDocuments } from '../../api/endpoints';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { formatUtc } from '../captures/captureView';
import { filterSections, readSnapshot, type SnapshotSection } from './snapshot';
import './snapshot.css';

export function SnapshotPage() {
  const { id: rawId } = useParams();
  const id = Number(rawId);
  useDocumentTitle(`Snapshot · capture #${rawId ?? ''}`);
  const capture = useQuery({ queryKey: ['capture', id], queryFn: ({ signal }) => getCapture(id, signal), enabled: Number.isInteger(id) && id > 0 });
  const docs = useQuery({ queryKey: ['documents', id], queryFn: ({ signal }) => getDocuments(id, signal), enabled: Number.isInteger(id) && id > 0 });
  const [filter, setFilter] = useState('');
  const snapshots = useMemo(() => (docs.data ?? []).filter((d) => d.kind === 'snapshot').map((d) => readSnapshot(d.content)).sort((x, y) => (x.take?.index ?? 0) - (y.take?.index ?? 0)), [docs.data]);

  if (!Number.isInteger(id) || id <= 0) return <EmptyState title={`“${rawId ?? ''}” is not a capture id`} />;
  const incident = capture.data?.incident_id;
  return (
    <div className="stack snapshot-page">
      <Breadcrumbs incident={incident ?? null} trail={[{ label: `snapshot ${capture.data ? capture.data.filename : `#${id}`}` }]} />
      {docs.isError ? <ErrorBanner title="Could not load the snapshot." error={docs.error} onRetry={() => void docs.refetch()} /> : null}
      {docs.isPending ? <p className="muted">Loading snapshot…</p> : null}
      {docs.data && snapshots.length === 0 ? (
        <EmptyState title="This capture holds no snapshot">
          <p>
            Snapshots are the Stallscope collector’s JSON documents, or plain-text ones (<code>== /path ==</code> sections, <code>sysctl -a</code>…): system state
            at the time of the incident.
          </p>
        </EmptyState>
      ) : null}
      {incident !== undefined && snapshots.length > 0 ? (
        <p className="small">
          <Link to={compareHref(incident, id, snapshots.length)} data-testid="compare-config">
            {snapshots.length > 1 ? 'Compare start and end' : 'Compare with another snapshot'}
          </Link>{' '}
          <span className="muted">— the settings that differ (THP, governors, vm.*, probes, BPF, environment…), changed first</span>
        </p>
      ) : null}
      {snapshots.length > 0 ? (
        <input
          type="search"
          className="snapshot-filter"
          placeholder="Filter sections, keys and values"
          aria-label="Filter snapshot"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setFilter('');
          }}
        />
      ) : null}
      {snapshots.map((snap, i) => {
        const shown = filterSections(snap.sections, filter);
        const failed = snap.sections.filter((s) => s.error !== null).length;
        return (
          <section key={i} className="stack stack--tight">
            <p className="small">
              {snap.take !== null && snapshots.length > 1 ? (
                <>
                  take <strong>{snap.take.index + 1}</strong>
                  {snap.take.label ? ` (${snap.take.label})` : ''} ·{' '}
                </>
              ) : null}
              host <strong className="mono">{snap.host ?? '?'}</strong>
              {snap.takenAtNs !== null ? (
                <>
                  {' '}
                  · taken <span className="mono">{formatUtc(new Date(snap.takenAtNs / 1e6).toISOString())} UTC</span>
                </>
              ) : null}{' '}
              · {snap.sections.length} sections
              {failed > 0 ? <span className="snap-failed"> · {failed} could not be read</span> : null}
            </p>
            {shown.length === 0 ? <p className="muted">No section matches “{filter}”.</p> : null}
            {shown.map((s) => (
              <SectionBlock key={s.name} section={s} open={filter.trim() !== '' || shown.length <= 12} />
            ))}
          </section>
        );
      })}
    </div>
  );
}

/** The config diff of the incident: this capture's first take against its last, or against another capture. */
function compareHref(incident: number, capture: number, takes: number): string {
  const base = `/incidents/${incident}/config-diff`;
  return takes > 1 ? `${base}?a=${capture}:0&b=${capture}:${takes - 1}` : `${base}?a=${capture}:0`;
}

function SectionBlock({ section: s, open }: { section: SnapshotSection; open: boolean }) {
  return (
    <details className={`snap-section${s.error !== null ? ' snap-section--failed' : ''}`} open={open} data-testid="snapshot-section">
      <summary>
        <span className="mono">{s.name}</span>
        {s.error !== null ? <span className="snap-failed"> — read failed</span> : <span className="muted small"> {s.entries.length > 1 ? `${s.entries.length} keys` : ''}</span>}
      </summary>
      {s.error !== null ? (
        <p className="snap-failed mono wrap" role="note">
          {s.error}
        </p>
      ) : s.entries.length === 1 && s.entries[0]?.key === '' ? (
        <pre className="snap-text">{s.entries[0].value}</pre>
      ) : (
        <dl className="kv snap-kv">
          {s.entries.map((e) => (
            <div key={e.key} className="kv__row">
              <dt className="mono">{e.key}</dt>
              <dd className="mono wrap">{e.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}
