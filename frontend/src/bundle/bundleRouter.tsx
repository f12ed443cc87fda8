/**
 * The bundle's routes: the console's own pages under the same paths, in the hash (a file opened from
 * disk has no server to answer paths), beside a home page listing what was exported.
 */
import { createHashRouter } from 'react-router';
import { NotFound } from '../app/NotFound';
import { IncidentPage } from '../features/captures/IncidentPage';
import { DiffPage } from '../features/diff/DiffPage';
import { EventsPage } from '../features/events/EventsPage';
import { FlamePage } from '../features/flame/FlamePage';
import { HeatmapPage } from '../features/heatmap/HeatmapPage';
import { MetricsPage } from '../features/metrics/MetricsPage';
import { ConfigDiffPage } from '../features/snapshot/ConfigDiffPage';
import { SnapshotPage } from '../features/snapshot/SnapshotPage';
import { ThreadsPage } from '../features/threads/ThreadsPage';
import { TimelinePage } from '../features/timeline/TimelinePage';
import type { BundleData } from './bundleData';
import { BundleHome } from './BundleHome';
import { BundleLayout } from './BundleLayout';

export function bundleRouter(data: BundleData) {
  return createHashRouter([
    {
      element: <BundleLayout data={data} />,
      children: [
        { index: true, element: <BundleHome data={data} /> },
        { path: 'incidents', element: <BundleHome data={data} /> },
        { path: 'incidents/:id', element: <IncidentPage /> },
        { path: 'incidents/:id/config-diff', element: <ConfigDiffPage /> },
        { path: 'timeline', element: <TimelinePage /> },
        { path: 'flame', element: <FlamePage /> },
        { path: 'diff', element: <DiffPage /> },
        { path: 'threads', element: <ThreadsPage /> },
        { path: 'heatmap', element: <HeatmapPage /> },
        { path: 'events', element: <EventsPage /> },
        { path: 'metrics', element: <MetricsPage /> },
        { path: 'captures/:id/snapshot', element: <SnapshotPage /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
}
