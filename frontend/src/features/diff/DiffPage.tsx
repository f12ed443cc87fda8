import { EmptyState } from '../../shared/components/EmptyState';
import { ViewTabs } from '../../shared/components/ViewTabs';

/** Placeholder until the view lands. */
export function DiffPage() {
  return (
    <>
      <ViewTabs />
      <EmptyState title="Diff">This view is being built.</EmptyState>
    </>
  );
}
