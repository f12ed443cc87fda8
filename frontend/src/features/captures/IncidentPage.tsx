import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { postmortemUrl } from '../../api/endpoints';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { usePermissions } from '../auth/usePermissions';
import { ExportBundleButton } from '../bundle/ExportBundleButton';
import { FindingsPanel } from '../findings/FindingsPanel';
import { flameHref } from '../flame/urlState';
import { GuestLinksPanel } from '../guests/GuestLinksPanel';
import { useGuestScope } from '../guests/useGuestScope';
import { VisibilityBadge } from '../incidents/VisibilityBadge';
import { incidentQuery } from '../incidents/queries';
import { IncidentLifecycle } from '../lifecycle/IncidentLifecycle';
import { CaptureTable } from './CaptureTable';
import { isActive, isReady } from './captureStatus';
import { hasSamples } from './captureView';
import { DropOverlay } from './DropOverlay';
import { IncidentHeader } from './IncidentHeader';
import { capturesQuery, useRefreshCaptures, useReparse } from './queries';
import { UploadPanel } from './UploadPanel';
import { useUploads } from './useUploads';
import './captures.css';

export function IncidentPage() {
  const { id: rawId } = useParams();
  const id = Number(rawId);
  if (!Number.isInteger(id) || id <= 0) {
    return <EmptyState title={`“${rawId ?? ''}” is not an incident id`}><Link to="/">Back to incidents</Link></EmptyState>;
  }
  return <IncidentView key={id} id={id} />;
}

function IncidentView({ id }: { id: number }) {
  const incident = useQuery(incidentQuery(id));
  const captures = useQuery(capturesQuery(id));
  const refresh = useRefreshCaptures(id);
  const reparse = useReparse(id);
  const uploads = useUploads(id, refresh);
  const [host, setHost] = useState('');
  const can = usePermissions();
  const guest = useGuestScope();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  useDocumentTitle(incident.data ? `#${id} ${incident.data.title}` : `Incident #${id}`);

  const { upload } = uploads;
  const onFiles = useCallback((files: File[]) => upload(files, host), [upload, host]);

  const list = captures.data ?? [];
  const ready = list.filter(isReady);
  // The combined flame graph is for CPU samples; other kinds open from their own row.
  const sampled = ready.filter(hasSamples);
  const chosen = sampled.filter((c) => selected.has(c.id));
  const working = list.filter(isActive).length;

  const select = (ids: number[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const cid of ids) {
        if (on) next.add(cid);
        else next.delete(cid);
      }
      return next;
    });

  return (
    <div className="stack">
      <Breadcrumbs incident={id} />

      {incident.isError ? <ErrorBanner title="Could not load the incident." error={incident.error} onRetry={() => void incident.refetch()} /> : null}
      {incident.data ? <IncidentHeader incident={incident.data} /> : incident.isPending ? <p className="muted">Loading incident…</p> : null}
      {incident.data ? <VisibilityBadge incident={incident.data} /> : null}
      {incident.data ? <IncidentLifecycle incident={incident.data} /> : null}
      {incident.data && can.canRespond ? (
        <p className="small" data-testid="postmortem-downloads">
          Postmortem: <a href={postmortemUrl(id, 'md')} download>Markdown</a> · <a href={postmortemUrl(id, 'html')} download>HTML</a> ·{' '}
          <a href={postmortemUrl(id, 'zip')} download>zip with images</a>
        </p>
      ) : null}
      {incident.data && can.canExport ? <ExportBundleButton incidentId={id} captures={list} asGuest={!can.canRespond} /> : null}

      {captures.data && guest.allows('findings') ? <FindingsPanel incident={id} captures={captures.data} /> : null}

      {can.canUpload ? (
        <>
          <DropOverlay onFiles={onFiles} label={`Drop to upload to incident #${id}${host.trim() ? ` (host ${host.trim()})` : ''}`} />
          <UploadPanel
            host={host}
            onHost={setHost}
            timeColumn={uploads.timeColumn}
            onTimeColumn={uploads.setTimeColumn}
            start={uploads.start}
            onStart={uploads.setStart}
            onFiles={onFiles}
            items={uploads.items}
            onCancel={uploads.cancel}
            onDismiss={uploads.dismiss}
            onClearFinished={uploads.clearFinished}
          />
        </>
      ) : (
        <p className="muted small" data-testid="upload-not-allowed">
          Uploads are off for you: {can.whyNot('upload')}.
        </p>
      )}

      <section className="stack stack--tight">
        <div className="section-head">
          <h2>Captures</h2>
          {working > 0 ? <span className="muted small live-dot">{working} being parsed — refreshing every second</span> : null}
          <div className="spacer" />
          {list.length > 0 && guest.allows('timeline') ? (
            <Link className="btn" to={guest.href(`/timeline?incident=${id}`)} data-testid="open-timeline">
              Investigate: timeline, threads, heatmap, metrics
            </Link>
          ) : null}
          {sampled.length > 0 ? (
            <Link
              className="btn btn--primary"
              to={flameHref({ incident: id, captures: (chosen.length > 0 ? chosen : sampled).map((c) => c.id) })}
            >
              {chosen.length > 0
                ? `Open flame graph of ${chosen.length} selected`
                : sampled.length === 1
                  ? 'Open CPU flame graph'
                  : `Open flame graph of all ${sampled.length} CPU captures`}
            </Link>
          ) : null}
        </div>
        {captures.isError ? <ErrorBanner title="Could not load captures." error={captures.error} onRetry={() => void captures.refetch()} /> : null}
        {reparse.isError ? <ErrorBanner title="Re-parse failed." error={reparse.error} /> : null}
        {captures.isPending ? <p className="muted">Loading captures…</p> : null}
        {captures.data && list.length === 0 ? (
          <EmptyState title="No captures yet">
            {can.canUpload ? (
              <p>
                Drag a <code>perf script</code> file here, use <strong>Upload files…</strong>, or run{' '}
                <code>stallscope upload FILE --incident {id}</code>.
              </p>
            ) : (
              <p>A responder or an admin can upload them.</p>
            )}
            <p className="muted small">
              Record with <code>perf record -F 99 -a -g -- sleep 30</code>, then <code>perf script &gt; out.txt</code>. Syscall traces
              (<code>perf trace</code>), scheduler traces (<code>perf sched</code>), sysstat/Prometheus metrics and collector snapshots
              are read too.
            </p>
          </EmptyState>
        ) : null}
        {list.length > 0 ? (
          <CaptureTable
            captures={list}
            selected={selected}
            onSelect={select}
            onReparse={(cid) => reparse.mutate(cid)}
            reparsingId={reparse.isPending ? reparse.variables : null}
          />
        ) : null}
      </section>

      <GuestLinksPanel incident={id} />
    </div>
  );
}
