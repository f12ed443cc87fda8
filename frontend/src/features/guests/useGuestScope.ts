import { useMe } from '../auth/usePermissions';
import type { GuestView } from './api';
import { guestAllowsView, guestHref, viewOfPath } from './guestScope';

export interface GuestScopeHelpers {
  /** Whether the guest's link opens this view (always, for everyone else). */
  allows: (view: GuestView) => boolean;
  /** Whether the guest's link opens the view at this console path. */
  showsPath: (pathname: string) => boolean;
  /** A view's URL as the guest must open it (unchanged for everyone else). */
  href: (href: string) => string;
}

/** For links to views: what a guest's link opens, and the URLs it must open them at. */
export function useGuestScope(): GuestScopeHelpers {
  const me = useMe();
  const allows = (view: GuestView) => guestAllowsView(me, view);
  return {
    allows,
    showsPath: (pathname) => {
      const view = viewOfPath(pathname);
      return view === null || allows(view);
    },
    href: (href) => guestHref(me, href),
  };
}
