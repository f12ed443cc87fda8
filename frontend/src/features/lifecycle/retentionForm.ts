/** The retention form: "never" or a number of days per rule, read back into the policy the API takes. */
import type { RetentionPolicy } from './api';

/** The API's bound on every field (100 years). */
export const MAX_DAYS = 36_500;

export interface RetentionDraft {
  /** Days as typed; blank means never. */
  resolvedAfterDays: string;
  failedAfterDays: string;
  watchDays: string;
  /** Days as typed; required. */
  trashDays: string;
}

export function draftOfPolicy(policy: RetentionPolicy): RetentionDraft {
  return {
    resolvedAfterDays: policy.resolved_after_days === null ? '' : String(policy.resolved_after_days),
    failedAfterDays: policy.failed_after_days === null ? '' : String(policy.failed_after_days),
    watchDays: policy.watch_days === null ? '' : String(policy.watch_days),
    trashDays: String(policy.trash_days),
  };
}

function days(text: string, what: string): number | string {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${what}: a whole number of days`;
  const n = Number(t);
  if (n > MAX_DAYS) return `${what}: at most ${MAX_DAYS} days`;
  return n;
}

/** The policy to PUT, or the first problem with the form. */
export function policyOf(draft: RetentionDraft): { policy: RetentionPolicy } | { problem: string } {
  const resolved = draft.resolvedAfterDays.trim() === '' ? null : days(draft.resolvedAfterDays, 'Resolved incidents');
  if (typeof resolved === 'string') return { problem: resolved };
  const failed = draft.failedAfterDays.trim() === '' ? null : days(draft.failedAfterDays, 'Failed uploads');
  if (typeof failed === 'string') return { problem: failed };
  const watch = draft.watchDays.trim() === '' ? null : days(draft.watchDays, 'Watch captures');
  if (typeof watch === 'string') return { problem: watch };
  const trash = days(draft.trashDays, 'Trash');
  if (typeof trash === 'string') return { problem: trash };
  return { policy: { resolved_after_days: resolved, failed_after_days: failed, watch_days: watch, trash_days: trash } };
}
