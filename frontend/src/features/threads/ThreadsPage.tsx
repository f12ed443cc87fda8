import { EmptyState } from '../../shared/components/EmptyState';
import { ViewTabs } from '../../shared/components/ViewTabs';

/** Placeholder until the view lands. */
export function ThreadsPage() {
  return (
    <>
      <ViewTabs />
      <EmptyState title="Threads">This view is being built.</EmptyState>
    </>
  );
}
