import { describe, expect, it } from 'vitest';
import { draftOfPolicy, policyOf } from './retentionForm';

describe('retention form', () => {
  it('round-trips a policy, never as a blank field', () => {
    const policy = { resolved_after_days: null, failed_after_days: 30, watch_days: 7, trash_days: 7 };
    const draft = draftOfPolicy(policy);
    expect(draft).toEqual({ resolvedAfterDays: '', failedAfterDays: '30', watchDays: '7', trashDays: '7' });
    expect(policyOf(draft)).toEqual({ policy });
  });

  it('reads typed days, spaces allowed', () => {
    expect(policyOf({ resolvedAfterDays: ' 90 ', failedAfterDays: '', watchDays: ' 14', trashDays: '0' })).toEqual({
      policy: { resolved_after_days: 90, failed_after_days: null, watch_days: 14, trash_days: 0 },
    });
  });

  it('names the field that is not a whole number of days, or too many', () => {
    const none = { resolvedAfterDays: '', failedAfterDays: '', watchDays: '', trashDays: '7' };
    expect(policyOf({ ...none, resolvedAfterDays: '1.5' })).toEqual({ problem: 'Resolved incidents: a whole number of days' });
    expect(policyOf({ ...none, failedAfterDays: '-1' })).toEqual({ problem: 'Failed uploads: a whole number of days' });
    expect(policyOf({ ...none, watchDays: 'a week' })).toEqual({ problem: 'Watch captures: a whole number of days' });
    expect(policyOf({ ...none, trashDays: '' })).toEqual({ problem: 'Trash: a whole number of days' });
    expect(policyOf({ ...none, trashDays: '40000' })).toEqual({ problem: 'Trash: at most 36500 days' });
  });
});
