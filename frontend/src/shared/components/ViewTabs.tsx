import { NavLink, useLocation } from 'react-router';
import { viewHref } from '../selection';

/** The investigation views, in the order an investigation usually visits them. */
const INVESTIGATION_VIEWS = [
  { path: '/timeline', label: 'Timeline' },
  { path: '/flame', label: 'Flame graph' },
  { path: '/diff', label: 'Diff' },
  { path: '/threads', label: 'Threads' },
  { path: '/heatmap', label: 'Heatmap' },
] as const;

/** Tabs between the views; each link carries the shared selection and drops view-only keys. */
export function ViewTabs() {
  const { search } = useLocation();
  return (
    <nav className="view-tabs" aria-label="Investigation views">
      {INVESTIGATION_VIEWS.map((view) => (
        <NavLink key={view.path} to={viewHref(view.path, search)} className="view-tabs__tab">
          {view.label}
        </NavLink>
      ))}
    </nav>
  );
}
