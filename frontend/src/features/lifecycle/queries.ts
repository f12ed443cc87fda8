import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Incident } from '../../api/types';
import { capturesQuery } from '../captures/queries';
import { incidentQuery, incidentsQuery } from '../incidents/queries';
import {
  getRetention,
  getStorage,
  listTrash,
  patchIncident,
  purgeCapture,
  purgeIncident,
  putRetention,
  restoreCapture,
  restoreIncident,
  trashCapture,
  trashIncident,
  type IncidentPatch,
  type RetentionPolicy,
} from './api';

/** Slow on big incidents (it counts rows), so it is its own query the page does not wait for. */
export const storageQuery = (incident: number) =>
  queryOptions({ queryKey: ['incidents', incident, 'storage'], queryFn: ({ signal }) => getStorage(incident, signal), staleTime: 30_000 });

export const trashQuery = () => queryOptions({ queryKey: ['admin', 'trash'], queryFn: ({ signal }) => listTrash(signal) });

export const retentionQuery = () => queryOptions({ queryKey: ['admin', 'retention'], queryFn: ({ signal }) => getRetention(signal) });

export function usePatchIncident(id: number) {
  const qc = useQueryClient();
  return useMutation<Incident, Error, IncidentPatch>({
    mutationFn: (patch) => patchIncident(id, patch),
    onSuccess: (incident) => {
      qc.setQueryData(incidentQuery(id).queryKey, incident);
      void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
    },
  });
}

/** To the trash. The caller leaves the page; the incident's cached reads go with it. */
export function useTrashIncident(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => trashIncident(id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
      void qc.invalidateQueries({ queryKey: trashQuery().queryKey });
    },
  });
}

export function useTrashCapture(incident: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (capture: number) => trashCapture(capture),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: capturesQuery(incident).queryKey });
      void qc.invalidateQueries({ queryKey: incidentQuery(incident).queryKey, exact: true });
      void qc.invalidateQueries({ queryKey: storageQuery(incident).queryKey });
      void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
      void qc.invalidateQueries({ queryKey: trashQuery().queryKey });
    },
  });
}

export type TrashAction =
  | { kind: 'restore-incident'; id: number }
  | { kind: 'restore-capture'; id: number }
  | { kind: 'purge-incident'; id: number }
  | { kind: 'purge-capture'; id: number };

function runTrashAction(action: TrashAction): Promise<unknown> {
  switch (action.kind) {
    case 'restore-incident':
      return restoreIncident(action.id);
    case 'restore-capture':
      return restoreCapture(action.id);
    case 'purge-incident':
      return purgeIncident(action.id);
    case 'purge-capture':
      return purgeCapture(action.id);
  }
}

/** Restore or purge from the trash page: afterwards the trash and every incident read are refreshed. */
export function useTrashAction() {
  const qc = useQueryClient();
  return useMutation<unknown, Error, TrashAction>({
    mutationFn: runTrashAction,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: trashQuery().queryKey });
      void qc.invalidateQueries({ queryKey: ['incidents'] });
    },
  });
}

export function useSaveRetention() {
  const qc = useQueryClient();
  return useMutation<RetentionPolicy, Error, RetentionPolicy>({
    mutationFn: putRetention,
    onSuccess: (policy) => {
      qc.setQueryData(retentionQuery().queryKey, policy);
      void qc.invalidateQueries({ queryKey: trashQuery().queryKey });
    },
  });
}
