import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { createIncident, getIncident, listIncidents } from '../../api/endpoints';
import type { Incident, NewIncident } from '../../api/types';

export const incidentsQuery = () =>
  queryOptions({ queryKey: ['incidents'], queryFn: ({ signal }) => listIncidents(signal) });

export const incidentQuery = (id: number) =>
  queryOptions({ queryKey: ['incidents', id], queryFn: ({ signal }) => getIncident(id, signal) });

export function useCreateIncident() {
  const qc = useQueryClient();
  return useMutation<Incident, Error, NewIncident>({
    mutationFn: createIncident,
    onSuccess: (incident) => {
      qc.setQueryData(incidentQuery(incident.id).queryKey, incident);
      void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
    },
  });
}
