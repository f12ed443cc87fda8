import { describe, expect, it } from 'vitest';
import { draftOfPolicy, policyOf } from './retentionForm';

describe('retention form', () => {
  it('round-trips a policy, never as a blank field', () => {
    const policy = { resolved_after_days: null, failed_after_days: 30, trash_days: 7 };
    const draft = draftOfPolicy(policy);
    expect(draft).toEqual({ resolvedAfterDays: '', failedAfterDays: '30', trashDays: '7' });
    expect(policyOf(draft)).toEqual({ policy });
  });

  it('reads typed days, spaces allowed', () => {
    expect(policyOf({ resolvedAfterDays: ' 90 ', failedAfterDays: '', trashDays: '0' })).toEqual({
      policy: { resolved_after_days: 90, failed_after_days: null, trash_days: 0 },
    });
  });

  it('names the field that is not a whole number of days, or too many', () => {
    expect(policyOf({ resolvedAfterDays: '1.5', failedAfterDays: '', trashDays: '7' })).toEqual({ problem: 'Resolved incidents: a whole number of days' });
    expect(policyOf({ resolvedAfterDays: '', failedAfterDays: '-1', trashDays: '7' })).toEqual({ problem: 'Failed uploads: a whole number of days' });
    expect(policyOf({ resolvedAfterDays: '', failedAfterDays: '', trashDays: '' })).toEqual({ problem: 'Trash: a whole number of days' });
    expect(policyOf({ resolvedAfterDays: '', failedAfterDays: '', trashDays: '40000' })).toEqual({ problem: 'Trash: at most 36500 days' });
  });
});
