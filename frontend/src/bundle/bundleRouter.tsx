/**
 * The bundle's routes: the console's own pages under the same paths, in the hash (a file opened from
 * disk has no server to answer paths), beside a home page listing what was exported.
 */
import { createHashRouter } from 'react-router';
import { NotFound } from '../app/NotFound';
import { VIEW_ROUTES } from '../app/viewRoutes';
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
        ...VIEW_ROUTES,
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
}
