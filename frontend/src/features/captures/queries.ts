import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { listCaptures, reparseCapture } from '../../api/endpoints';
import type { Capture } from '../../api/types';
import { incidentQuery, incidentsQuery } from '../incidents/queries';
import { pollInterval } from './captureStatus';

export const capturesQuery = (incidentId: number) =>
  queryOptions({
    queryKey: ['incidents', incidentId, 'captures'],
    queryFn: ({ signal }) => listCaptures(incidentId, signal),
    refetchInterval: (q) => pollInterval(q.state.data),
    staleTime: 0,
  });

/** After an upload or re-parse: refresh the captures table and the counts shown elsewhere. */
export function useRefreshCaptures(incidentId: number) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: capturesQuery(incidentId).queryKey });
    void qc.invalidateQueries({ queryKey: incidentQuery(incidentId).queryKey, exact: true });
    void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
  };
}

export function useReparse(incidentId: number) {
  const refresh = useRefreshCaptures(incidentId);
  return useMutation<Capture, Error, number>({ mutationFn: reparseCapture, onSettled: refresh });
}
