import { useQuery } from '@tanstack/react-query';
import { capturesQuery } from '../../features/captures/queries';
import { capturesLabel } from '../breadcrumbs';

/** The captures a view shows, by file name (from the incident's list, which the views load anyway). */
export function useCapturesLabel(incident: number | null, ids: readonly number[]): string {
  const list = useQuery({ ...capturesQuery(incident ?? 0), enabled: incident !== null && ids.length > 0 });
  return capturesLabel(ids, list.data);
}
