/**
 * The pages that show an incident's data, under their paths: the console routes them, and the
 * offline bundle viewer routes the same pages in its hash, so one list serves both.
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from './lazyPage';

// Each page is its own chunk, fetched the first time it is opened: the first load carries the shell
// and the incident list, not d3 and every view.
export const VIEW_ROUTES: RouteObject[] = [
  { path: 'incidents/:id', lazy: lazyPage(() => import('../features/captures/IncidentPage'), (m) => m.IncidentPage) },
  { path: 'incidents/:id/config-diff', lazy: lazyPage(() => import('../features/snapshot/ConfigDiffPage'), (m) => m.ConfigDiffPage) },
  { path: 'timeline', lazy: lazyPage(() => import('../features/timeline/TimelinePage'), (m) => m.TimelinePage) },
  { path: 'flame', lazy: lazyPage(() => import('../features/flame/FlamePage'), (m) => m.FlamePage) },
  { path: 'diff', lazy: lazyPage(() => import('../features/diff/DiffPage'), (m) => m.DiffPage) },
  { path: 'threads', lazy: lazyPage(() => import('../features/threads/ThreadsPage'), (m) => m.ThreadsPage) },
  { path: 'heatmap', lazy: lazyPage(() => import('../features/heatmap/HeatmapPage'), (m) => m.HeatmapPage) },
  { path: 'events', lazy: lazyPage(() => import('../features/events/EventsPage'), (m) => m.EventsPage) },
  { path: 'metrics', lazy: lazyPage(() => import('../features/metrics/MetricsPage'), (m) => m.MetricsPage) },
  { path: 'captures/:id/snapshot', lazy: lazyPage(() => import('../features/snapshot/SnapshotPage'), (m) => m.SnapshotPage) },
];
