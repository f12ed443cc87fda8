import { NavLink, useLocation } from 'react-router';
import { useGuestScope } from '../../features/guests/useGuestScope';
import { viewHref } from '../selection';
import { ShareMenu, type ImageSource } from './ShareMenu';
import './ViewTabs.css';

/** The investigation views, in the order an investigation usually visits them. */
const INVESTIGATION_VIEWS = [
  { path: '/timeline', label: 'Timeline' },
  { path: '/flame', label: 'Flame graph' },
  { path: '/diff', label: 'Diff' },
  { path: '/threads', label: 'Threads' },
  { path: '/heatmap', label: 'Heatmap' },
  { path: '/metrics', label: 'Metrics' },
] as const;

/**
 * Tabs between the views; each link carries the shared selection and drops view-only keys. The
 * Share menu sits at the end: pass `image` where the view has a chart to export.
 */
export function ViewTabs({ image, imageName }: { image?: ImageSource; imageName?: string } = {}) {
  const { search } = useLocation();
  const guest = useGuestScope();
  return (
    <nav className="view-tabs" aria-label="Investigation views">
      {INVESTIGATION_VIEWS.filter((view) => guest.showsPath(view.path)).map((view) => (
        <NavLink key={view.path} to={guest.href(viewHref(view.path, search))} className="view-tabs__tab">
          {view.label}
        </NavLink>
      ))}
      <div className="view-tabs__end">
        <ShareMenu image={image} imageName={imageName} />
      </div>
    </nav>
  );
}
