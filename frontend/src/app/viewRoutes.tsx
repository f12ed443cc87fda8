/**
 * The pages that show an incident's data, under their paths: the console routes them, and the
 * offline bundle viewer routes the same pages in its hash, so one list serves both.
 */
import type { RouteObject } from 'react-router';
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

export const VIEW_ROUTES: RouteObject[] = [
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
];
