import { Outlet } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { usePermissions } from '../auth/usePermissions';

/** The admin pages, for admins; others are told why instead of meeting a row of 403s. */
export function RequireAdmin() {
  const can = usePermissions();
  if (!can.canAdmin) return <EmptyState title="Admins only">{can.whyNot('admin')}.</EmptyState>;
  return <Outlet />;
}
