import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { capturesQuery } from '../captures/queries';
import { findingsQuery } from '../findings/queries';
import { incidentsQuery } from '../incidents/queries';
import {
  addDayBefore,
  ALERTS_SHOWN,
  changeSignature,
  changeWebhook,
  createSignature,
  createWebhook,
  deleteSignature,
  deleteWebhook,
  listAlerts,
  listSignatures,
  listStreams,
  listWebhooks,
  openIncident,
  type DayBefore,
  type OpenedIncident,
  type Signature,
  type SignatureRequest,
  type Webhook,
  type WebhookRequest,
} from './api';

/**
 * Alerts and streams change while the page is open (hosts upload every few minutes, matches raise
 * alerts): on-call leaves the page open, so both are read again on this period.
 */
export const WATCH_REFRESH_MS = 30_000;

export const alertsQuery = () =>
  queryOptions({
    queryKey: ['watch', 'alerts', ALERTS_SHOWN],
    queryFn: ({ signal }) => listAlerts(ALERTS_SHOWN, signal),
    refetchInterval: WATCH_REFRESH_MS,
  });

export const streamsQuery = () =>
  queryOptions({ queryKey: ['watch', 'streams'], queryFn: ({ signal }) => listStreams(signal), refetchInterval: WATCH_REFRESH_MS });

export const signaturesQuery = () => queryOptions({ queryKey: ['watch', 'signatures'], queryFn: ({ signal }) => listSignatures(signal) });

export const webhooksQuery = () => queryOptions({ queryKey: ['watch', 'webhooks'], queryFn: ({ signal }) => listWebhooks(signal) });

/** A signature to create (`id` null) or to change. */
export interface SignatureSave {
  id: number | null;
  body: SignatureRequest;
}

export function useSaveSignature() {
  const qc = useQueryClient();
  return useMutation<Signature, Error, SignatureSave>({
    mutationFn: ({ id, body }) => (id === null ? createSignature(body) : changeSignature(id, body)),
    onSettled: () => void qc.invalidateQueries({ queryKey: signaturesQuery().queryKey }),
  });
}

/** The signature goes with the alerts it raised, so the alerts are read again too. */
export function useDeleteSignature() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteSignature(id),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: signaturesQuery().queryKey });
      void qc.invalidateQueries({ queryKey: ['watch', 'alerts'] });
    },
  });
}

/** A webhook to create (`id` null) or to change. */
export interface WebhookSave {
  id: number | null;
  body: WebhookRequest;
}

export function useSaveWebhook() {
  const qc = useQueryClient();
  return useMutation<Webhook, Error, WebhookSave>({
    mutationFn: ({ id, body }) => (id === null ? createWebhook(body) : changeWebhook(id, body)),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: webhooksQuery().queryKey });
      // Alerts name their deliveries by the webhook's name.
      void qc.invalidateQueries({ queryKey: ['watch', 'alerts'] });
    },
  });
}

/** The webhook's delivery records go with it, so the alerts are read again too. */
export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteWebhook(id),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: webhooksQuery().queryKey });
      void qc.invalidateQueries({ queryKey: ['watch', 'alerts'] });
    },
  });
}

/** The caller goes to the incident; the alert now names it, and the incident list has it. */
export function useOpenIncident() {
  const qc = useQueryClient();
  return useMutation<OpenedIncident, Error, number>({
    mutationFn: openIncident,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['watch', 'alerts'] });
      void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
    },
  });
}

/** The day before for an incident's watched hosts; its copies then parse, and the findings recompute. */
export function useDayBefore(incidentId: number) {
  const qc = useQueryClient();
  return useMutation<DayBefore>({
    mutationFn: () => addDayBefore(incidentId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: capturesQuery(incidentId).queryKey });
      void qc.invalidateQueries({ queryKey: findingsQuery(incidentId).queryKey });
    },
  });
}
