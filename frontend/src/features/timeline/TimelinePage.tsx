/**
 * The correlated timeline: every track of an incident on one wall-clock axis, grouped by host. The
 * range shown is the shared selection's `from`/`to`, so brushing and zooming here move every view.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { timelineImage } from './snapshot';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { readSelection, type Selection } from '../../shared/selection';
import { annotationsKey, getTracks, listAnnotations } from './api';
import { TimelineBody } from './TimelineBody';
import { decodeTimelineView } from './urlState';
import './timeline.css';

export function TimelinePage() {
  const [params] = useSearchParams();
  const { selection, warnings } = useMemo(() => readSelection(params), [params]);
  useDocumentTitle(selection.incident !== null ? `Timeline · incident #${selection.incident}` : 'Timeline');
  if (selection.incident === null) {
    return (
      <>
        <ViewTabs />
        <EmptyState title="No incident selected">
          <p>
            The timeline shows one incident’s captures on a single time axis. <Link to="/">Choose an incident</Link> and open its
            timeline from there.
          </p>
        </EmptyState>
      </>
    );
  }
  return <TimelineView incident={selection.incident} selection={selection} warnings={warnings} />;
}

function TimelineView({ incident, selection, warnings }: { incident: number; selection: Selection; warnings: string[] }) {
  const [params, setParams] = useSearchParams();
  const { view, warnings: viewWarnings } = useMemo(() => decodeTimelineView(params), [params]);
  const scope = useMemo(() => ({ incident, captures: selection.captures, hosts: selection.hosts }), [incident, selection.captures, selection.hosts]);
  const listing = useQuery({
    queryKey: ['timeline-tracks', scope],
    queryFn: ({ signal }) => getTracks(scope, signal),
    staleTime: 15_000,
  });
  const annotations = useQuery({
    queryKey: annotationsKey(incident),
    queryFn: ({ signal }) => listAnnotations(incident, signal),
    staleTime: 15_000,
  });

  return (
    <div className="stack tl-page">
      <ViewTabs image={timelineImage} imageName={`timeline-incident-${incident}`} />
      <Breadcrumbs incident={incident} trail={[{ label: 'timeline' }]} />
      {[...warnings, ...viewWarnings].map((w) => (
        <div key={w} className="banner banner--info">
          {w}
        </div>
      ))}
      {listing.isError ? <ErrorBanner title="Could not load the incident’s tracks." error={listing.error} onRetry={() => void listing.refetch()} /> : null}
      {listing.isPending ? <div className="muted">Loading tracks…</div> : null}
      {listing.data ? (
        <TimelineBody
          listing={listing.data}
          selection={selection}
          trackParam={view.tracks}
          split={view.split}
          annotations={annotations.data ?? []}
          setParams={setParams}
        />
      ) : null}
      {annotations.isError ? <ErrorBanner title="Could not load annotations." error={annotations.error} /> : null}
    </div>
  );
}
