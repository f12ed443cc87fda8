import { createBrowserRouter } from 'react-router';
import { TokensPage } from '../features/tokens/TokensPage';
import { IncidentListPage } from '../features/incidents/IncidentListPage';
import { AuditPage } from '../features/admin/AuditPage';
import { PeoplePage } from '../features/admin/PeoplePage';
import { RequireAdmin } from '../features/admin/RequireAdmin';
import { RetentionPage } from '../features/lifecycle/RetentionPage';
import { TrashPage } from '../features/lifecycle/TrashPage';
import { AccountPage } from '../features/auth/AccountPage';
import { AuthGate } from '../features/auth/AuthGate';
import { LoginPage } from '../features/auth/LoginPage';
import { ShortLinkPage } from '../features/auth/ShortLinkPage';
import { GuestEndedPage, GuestLinkPage } from '../features/guests/GuestLinkPage';
import { Layout } from './Layout';
import { VIEW_ROUTES } from './viewRoutes';
import { NotFound } from './NotFound';

export const router = createBrowserRouter([
  { path: 'login', element: <LoginPage /> },
  { path: 'g', element: <GuestEndedPage /> },
  { path: 'g/:secret', element: <GuestLinkPage /> },
  {
    // Everything else waits for the console to know who is signed in.
    element: <AuthGate />,
    children: [
      {
        element: <Layout />,
        children: [
          { index: true, element: <IncidentListPage /> },
          { path: 'incidents', element: <IncidentListPage /> },
          ...VIEW_ROUTES,
          { path: 'tokens', element: <TokensPage /> },
          { path: 'account', element: <AccountPage /> },
          { path: 's/:id', element: <ShortLinkPage /> },
          {
            path: 'admin',
            element: <RequireAdmin />,
            children: [
              { path: 'people', element: <PeoplePage /> },
              { path: 'audit', element: <AuditPage /> },
              { path: 'trash', element: <TrashPage /> },
              { path: 'retention', element: <RetentionPage /> },
            ],
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);
