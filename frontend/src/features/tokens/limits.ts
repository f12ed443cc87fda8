/** A collector token's limits as typed in the form, into what `POST /api/tokens` takes. */
import type { ApiTokenLimits } from '../../api/types';

/** Expiry choices in days; null: never expires. */
export const TOKEN_EXPIRIES: { label: string; days: number | null }[] = [
  { label: 'never', days: null },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
];

const DAY_MS = 86_400_000;

/** The limits, or a sentence saying what is wrong with the typed incident id. */
export function tokenLimits(incident: string, host: string, expiryDays: number | null, nowMs: number): ApiTokenLimits | string {
  const id = incident.trim().replace(/^#/, '');
  if (id !== '' && !/^[1-9]\d*$/.test(id)) return `“${incident.trim()}” is not an incident id`;
  return {
    incident_id: id === '' ? null : Number(id),
    host: host.trim() || null,
    expires_at: expiryDays === null ? null : new Date(nowMs + expiryDays * DAY_MS).toISOString(),
  };
}
