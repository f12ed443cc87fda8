import { createBrowserRouter } from 'react-router';
import { IncidentPage } from '../features/captures/IncidentPage';
import { FlamePage } from '../features/flame/FlamePage';
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
      { path: '*', element: <NotFound /> },
    ],
  },
]);
