/** `#/`: what the bundle holds — the incident, when and how it was exported, its views and files. */
import { Link } from 'react-router';
import { SeverityBadge } from '../shared/components/SeverityBadge';
import { Time } from '../shared/components/Time';
import { useDocumentTitle } from '../shared/hooks/useDocumentTitle';
import { STATUS_LABEL } from '../features/lifecycle/status';
import type { BundleData, BundleViewKind } from './bundleData';

const KIND_LABEL: Record<BundleViewKind, string> = {
  flame: 'Flame graph',
  diff: 'Diff',
  threads: 'Threads',
  timeline: 'Timeline',
  heatmap: 'Heatmap',
  incident: 'Incident',
  events: 'Events',
  metrics: 'Metrics',
  snapshot: 'Snapshot',
  'config-diff': 'Config diff',
};

export function BundleHome({ data }: { data: BundleData }) {
  const { incident } = data;
  useDocumentTitle(`Bundle · incident #${incident.id}`);
  return (
    <div className="stack bundle-home">
      <div className="page-head">
        <h1>
          #{incident.id} {incident.title}
        </h1>
        <p className="bundle-facts" data-testid="bundle-facts">
          <SeverityBadge severity={incident.severity} /> <span>{STATUS_LABEL[incident.status]}</span> · started{' '}
          <Time iso={incident.started_at} /> · exported <Time iso={data.exportedAt} /> · redacted: {data.redacted ? 'yes' : 'no'} · Stallscope{' '}
          {data.stallscopeVersion}
        </p>
        {incident.summary ? <p>{incident.summary}</p> : null}
      </div>

      <section className="card" aria-labelledby="bundle-views">
        <h2 id="bundle-views">Views</h2>
        {data.views.length === 0 ? (
          <p className="muted">This bundle holds no views.</p>
        ) : (
          <ol className="bundle-views" data-testid="bundle-views">
            {data.views.map((v, i) => (
              <li key={`${i}:${v.route}`}>
                <Link to={v.route}>{v.title || KIND_LABEL[v.kind]}</Link> <span className="muted small">{KIND_LABEL[v.kind]}</span>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="card" aria-labelledby="bundle-files">
        <h2 id="bundle-files">Files beside this page</h2>
        {data.files.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="bundle-files" data-testid="bundle-files">
            {data.files.map((f) => (
              <li key={f.path}>
                <span className="mono">{f.path}</span> {f.title ? <span className="muted small">— {f.title}</span> : null}
              </li>
            ))}
          </ul>
        )}
        <p className="muted small">They are in the zip this page came in, next to index.html.</p>
      </section>
    </div>
  );
}
