import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { usePermissions } from '../auth/usePermissions';
import { AlertsSection } from './AlertsSection';
import { SignaturesSection } from './SignaturesSection';
import { StreamsSection } from './StreamsSection';
import { useNow } from './useNow';
import { WATCH_REFRESH_MS } from './queries';
import { WebhooksSection } from './WebhooksSection';
import './watch.css';

const SIGNATURES_ID = 'signatures';

/**
 * Watch mode: hosts upload short captures every few minutes, signatures are checked on each, and a
 * match raises an alert. Alerts come first: it is what on-call opens the page for.
 */
export function WatchPage() {
  useDocumentTitle('Watch');
  const can = usePermissions();
  const now = useNow(WATCH_REFRESH_MS);
  return (
    <div className="stack watch-page">
      <Breadcrumbs incident={null} trail={[{ label: 'Watch' }]} />
      <div className="page-head">
        <div>
          <h1>Watch</h1>
          <p className="muted">
            Hosts running the collector in watch mode send short captures every few minutes; each is checked against the signatures, and
            a match raises an alert.
          </p>
        </div>
      </div>
      <AlertsSection now={now} canOpen={can.canRespond} signaturesId={SIGNATURES_ID} />
      <StreamsSection now={now} />
      <SignaturesSection id={SIGNATURES_ID} canEdit={can.canRespond} />
      {can.canAdmin ? <WebhooksSection /> : null}
    </div>
  );
}
