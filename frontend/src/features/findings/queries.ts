/** The findings in TanStack Query: one query per incident, and the two writes that change it. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getFindings, postVerdict, putBaseline, type FindingsReport, type Verdict, type VerdictKind } from './api';
import { findingsPollMs } from './panelStatus';

export const findingsQuery = (incidentId: number) =>
  queryOptions({
    queryKey: ['incidents', incidentId, 'findings'],
    queryFn: ({ signal }) => getFindings(incidentId, signal),
    refetchInterval: (q) => findingsPollMs(q.state.data),
    staleTime: 5_000,
  });

/** Set the baseline hosts; the answer (usually `computing`) replaces the cached findings and polling takes over. */
export function useSetBaseline(incidentId: number) {
  const qc = useQueryClient();
  return useMutation<FindingsReport, Error, string[]>({
    mutationFn: (hosts) => putBaseline(incidentId, hosts),
    onSuccess: (report) => qc.setQueryData(findingsQuery(incidentId).queryKey, report),
  });
}

export interface VerdictInput {
  findingId: string;
  verdict: VerdictKind | null;
  note: string;
}

/** Confirm, dismiss or clear; the stored verdict is written into the cached finding. */
export function useSetVerdict(incidentId: number) {
  const qc = useQueryClient();
  const key = findingsQuery(incidentId).queryKey;
  return useMutation<Verdict | null, Error, VerdictInput>({
    mutationFn: ({ findingId, verdict, note }) => postVerdict(incidentId, findingId, verdict, note),
    onSuccess: (verdict, { findingId }) =>
      qc.setQueryData(key, (old) =>
        old ? { ...old, findings: old.findings.map((f) => (f.id === findingId ? { ...f, verdict } : f)) } : old,
      ),
  });
}
