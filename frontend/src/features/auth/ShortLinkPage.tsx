/**
 * `/s/<id>`: the server serves the page without saying where the link goes (a visitor who has not
 * signed in must not learn which incident or view it names), so the page asks `/api/shares/<id>`
 * once signed in (the auth gate sees to that) and goes there.
 */
import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { getShortLink } from '../../shared/share';
import { safeNext } from './nextPath';

export function ShortLinkPage() {
  const { id = '' } = useParams();
  const link = useQuery({
    queryKey: ['share', 'follow', id],
    queryFn: ({ signal }) => getShortLink(id, signal),
    retry: false,
  });
  // The stored target is a path on this console; safeNext keeps it so.
  if (link.data) return <Navigate to={safeNext(link.data.target)} replace />;
  if (link.isError) return <ErrorBanner title="Could not open the short link:" error={link.error} />;
  return <p className="muted">Opening the short link…</p>;
}
