import { EmptyState } from '../../shared/components/EmptyState';
import { ViewTabs } from '../../shared/components/ViewTabs';

/** Placeholder until the view lands. */
export function TimelinePage() {
  return (
    <>
      <ViewTabs />
      <EmptyState title="Timeline">This view is being built.</EmptyState>
    </>
  );
}
