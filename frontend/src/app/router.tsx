import { createBrowserRouter } from 'react-router';
import { IncidentPage } from '../features/captures/IncidentPage';
import { EventsPage } from '../features/events/EventsPage';
import { FlamePage } from '../features/flame/FlamePage';
import { MetricsPage } from '../features/metrics/MetricsPage';
import { SnapshotPage } from '../features/snapshot/SnapshotPage';
import { TokensPage } from '../features/tokens/TokensPage';
import { IncidentListPage } from '../features/incidents/IncidentListPage';
import { Layout } from './Layout';
import { NotFound } from './NotFound';

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <IncidentListPage /> },
      { path: 'incidents/:id', element: <IncidentPage /> },
      { path: 'flame', element: <FlamePage /> },
      { path: 'events', element: <EventsPage /> },
      { path: 'metrics', element: <MetricsPage /> },
      { path: 'captures/:id/snapshot', element: <SnapshotPage /> },
      { path: 'tokens', element: <TokensPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
