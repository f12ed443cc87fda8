import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { listCaptures } from '../../api/endpoints';
import { cellText, groups, onlyReadSummary, pickPair, sideId, snapshotLabel, startEndPairs, uploadHosts, type RowGroup, type UploadHosts } from './configDiffView';
import { getConfigDiff, listSnapshots, type ConfigDiff, type SnapshotRef } from './diffApi';
import './snapshot.css';
import './configDiff.css';

/** Two snapshots of an incident side by side: the settings B changed, added or lost against A. */
export function ConfigDiffPage() {
  const { id: rawId } = useParams();
  const incident = Number(rawId);
  const valid = Number.isInteger(incident) && incident > 0;
  useDocumentTitle(`Config diff · incident #${rawId ?? ''}`);
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState('');
  const snapshots = useQuery({
    queryKey: ['snapshots', incident],
    queryFn: ({ signal }) => listSnapshots(incident, signal),
    enabled: valid,
  });
  // The hosts the captures were uploaded under: the names findings use, which a snapshot's own
  // hostname (often the same VM image's) may not tell apart.
  const captures = useQuery({
    queryKey: ['config-diff', 'captures', incident],
    queryFn: ({ signal }) => listCaptures(incident, signal),
    enabled: valid,
  });
  const hosts = useMemo(() => uploadHosts(captures.data ?? []), [captures.data]);
  const urlA = params.get('a');
  const urlB = params.get('b');
  const [a, b] = useMemo(() => pickPair(snapshots.data ?? [], urlA, urlB), [snapshots.data, urlA, urlB]);
  const diff = useQuery({
    queryKey: ['config-diff', a, b],
    queryFn: ({ signal }) => getConfigDiff(a ?? '', b ?? '', signal),
    enabled: a !== null && b !== null,
  });
  const choose = (side: 'a' | 'b', value: string) => {
    const next = new URLSearchParams(params);
    next.set('a', side === 'a' ? value : (a ?? value));
    next.set('b', side === 'b' ? value : (b ?? value));
    setParams(next, { replace: true });
  };

  if (!valid) return <EmptyState title={`“${rawId ?? ''}” is not an incident id`} />;
  const all = snapshots.data ?? [];
  return (
    <div className="stack config-diff-page">
      <Breadcrumbs incident={incident} trail={[{ label: 'config diff' }]} />
      {snapshots.isError ? <ErrorBanner title="Could not list the incident’s snapshots." error={snapshots.error} onRetry={() => void snapshots.refetch()} /> : null}
      {snapshots.isPending ? <p className="muted">Loading snapshots…</p> : null}
      {snapshots.data && all.length < 2 ? (
        <EmptyState title="Two snapshots are needed">
          <p>
            Upload a system snapshot of each host (the collector’s <code>snapshot.json</code>, or a text file of <code>== /path ==</code> sections,{' '}
            <code>sysctl -a</code> and the like), or one text file holding a start and an end take, to compare their configuration.
          </p>
        </EmptyState>
      ) : null}
      {all.length >= 2 ? (
        <div className="config-diff-pickers">
          <SidePicker label="A (baseline)" value={a} snapshots={all} hosts={hosts} onChange={(v) => choose('a', v)} />
          <SidePicker label="B (compared)" value={b} snapshots={all} hosts={hosts} onChange={(v) => choose('b', v)} />
          {startEndPairs(all).map(([first, last]) => (
            <button
              key={first.capture_id}
              type="button"
              className="btn btn--small"
              onClick={() => setParams(new URLSearchParams({ a: sideId(first), b: sideId(last) }), { replace: true })}
            >
              Start vs end of #{first.capture_id}
            </button>
          ))}
        </div>
      ) : null}
      {diff.isError ? <ErrorBanner title="Could not compare these snapshots." error={diff.error} onRetry={() => void diff.refetch()} /> : null}
      {diff.isPending && a !== null && b !== null ? <p className="muted">Comparing…</p> : null}
      {diff.data ? <DiffTables diff={diff.data} all={all} hosts={hosts} filter={filter} setFilter={setFilter} /> : null}
    </div>
  );
}

function SidePicker({
  label,
  value,
  snapshots,
  hosts,
  onChange,
}: {
  label: string;
  value: string | null;
  snapshots: SnapshotRef[];
  hosts: UploadHosts;
  onChange: (v: string) => void;
}) {
  return (
    <label className="config-diff-picker">
      <span className="small muted">{label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        {snapshots.map((s) => (
          <option key={sideId(s)} value={sideId(s)}>
            {snapshotLabel(s, snapshots, hosts)}
          </option>
        ))}
      </select>
    </label>
  );
}

function DiffTables({
  diff,
  all,
  hosts,
  filter,
  setFilter,
}: {
  diff: ConfigDiff;
  all: SnapshotRef[];
  hosts: UploadHosts;
  filter: string;
  setFilter: (v: string) => void;
}) {
  const shown = groups(diff, filter);
  const differs = diff.changed.length + diff.added.length + diff.removed.length;
  return (
    <div className="stack stack--tight">
      <p className="small" data-testid="config-diff-summary">
        <strong>{differs === 0 ? 'No setting differs' : `${differs} ${differs === 1 ? 'setting differs' : 'settings differ'}`}</strong>
        {' · '}
        {diff.changed.length} changed · {diff.added.length} added · {diff.removed.length} removed · {diff.unchanged.length} unchanged
        <span className="muted">
          {' '}
          — A: {snapshotLabel(diff.a, all, hosts)}; B: {snapshotLabel(diff.b, all, hosts)}
        </span>
      </p>
      <input
        type="search"
        className="snapshot-filter"
        placeholder="Filter settings and values"
        aria-label="Filter settings"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {shown.map((g) =>
        g.status === 'unchanged' ? (
          <Unchanged key={g.status} group={g} filtered={filter.trim() !== ''} />
        ) : g.rows.length > 0 ? (
          <section key={g.status} className="config-diff-group" data-testid={`config-diff-${g.status}`}>
            <h3>
              {g.title} ({g.rows.length})
            </h3>
            <Rows group={g} />
          </section>
        ) : null,
      )}
      {diff.only_in_a.length > 0 ? <p className="small muted">Read on A only, not compared: {onlyReadSummary(diff.only_in_a)}</p> : null}
      {diff.only_in_b.length > 0 ? <p className="small muted">Read on B only, not compared: {onlyReadSummary(diff.only_in_b)}</p> : null}
    </div>
  );
}

/** Collapsed unless asked for or filtered; its rows (thousands with `sysctl -a` and a kernel config) are drawn only when open. */
function Unchanged({ group, filtered }: { group: RowGroup; filtered: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const open = expanded || (filtered && group.rows.length > 0);
  return (
    <details className="config-diff-group" data-testid="config-diff-unchanged" open={open} onToggle={(e) => setExpanded(e.currentTarget.open)}>
      <summary>
        {group.title} ({group.rows.length})
      </summary>
      {open ? <Rows group={group} /> : null}
    </details>
  );
}

function Rows({ group }: { group: RowGroup }) {
  return (
    <table className="config-diff-table">
      <colgroup>
        <col className="config-diff-col-section" />
        <col />
        <col className="config-diff-col-value" />
        <col className="config-diff-col-value" />
      </colgroup>
      <thead>
        <tr>
          <th>Section</th>
          <th>Setting</th>
          <th>A</th>
          <th>B</th>
        </tr>
      </thead>
      <tbody>
        {group.rows.map((r) => (
          <tr key={`${r.section}\u0000${r.key}`} className={`config-diff-row config-diff-row--${r.status}`}>
            <td className="mono">{r.section}</td>
            <td className="mono wrap">
              {r.key}
              {r.hint && r.status !== 'unchanged' ? <div className="config-diff-hint small">{r.hint}</div> : null}
            </td>
            <td className="mono wrap config-diff-a">{cellText(r.a, r.a_note, r.status, 'a')}</td>
            <td className="mono wrap config-diff-b">{cellText(r.b, r.b_note, r.status, 'b')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
