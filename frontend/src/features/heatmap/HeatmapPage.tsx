import { EmptyState } from '../../shared/components/EmptyState';
import { ViewTabs } from '../../shared/components/ViewTabs';

/** Placeholder until the view lands. */
export function HeatmapPage() {
  return (
    <>
      <ViewTabs />
      <EmptyState title="Heatmap">This view is being built.</EmptyState>
    </>
  );
}
