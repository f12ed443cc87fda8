import { createBrowserRouter } from 'react-router';
import { IncidentListPage } from '../features/incidents/IncidentListPage';
import { RequireAdmin } from '../features/admin/RequireAdmin';
import { AuthGate } from '../features/auth/AuthGate';
import { LoginPage } from '../features/auth/LoginPage';
import { ShortLinkPage } from '../features/auth/ShortLinkPage';
import { GuestEndedPage, GuestLinkPage } from '../features/guests/GuestLinkPage';
import { Layout } from './Layout';
import { lazyPage } from './lazyPage';
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
          { path: 'tokens', lazy: lazyPage(() => import('../features/tokens/TokensPage'), (m) => m.TokensPage) },
          { path: 'watch', lazy: lazyPage(() => import('../features/watch/WatchPage'), (m) => m.WatchPage) },
          { path: 'account', lazy: lazyPage(() => import('../features/auth/AccountPage'), (m) => m.AccountPage) },
          { path: 's/:id', element: <ShortLinkPage /> },
          {
            path: 'admin',
            element: <RequireAdmin />,
            children: [
              { path: 'people', lazy: lazyPage(() => import('../features/admin/PeoplePage'), (m) => m.PeoplePage) },
              { path: 'audit', lazy: lazyPage(() => import('../features/admin/AuditPage'), (m) => m.AuditPage) },
              { path: 'trash', lazy: lazyPage(() => import('../features/lifecycle/TrashPage'), (m) => m.TrashPage) },
              { path: 'retention', lazy: lazyPage(() => import('../features/lifecycle/RetentionPage'), (m) => m.RetentionPage) },
            ],
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);
