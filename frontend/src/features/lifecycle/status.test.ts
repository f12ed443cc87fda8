import { describe, expect, it } from 'vitest';
import { statusSteps } from './status';

const base = { started_at: '2026-11-20T08:00:00Z', identified_at: null, mitigated_at: null, resolved_at: null };

describe('status steps', () => {
  it('list the four statuses in order with the current one marked', () => {
    const steps = statusSteps({ ...base, status: 'investigating' });
    expect(steps.map((s) => s.status)).toEqual(['investigating', 'identified', 'mitigated', 'resolved']);
    expect(steps.filter((s) => s.current).map((s) => s.status)).toEqual(['investigating']);
    expect(steps.map((s) => s.at)).toEqual(['2026-11-20T08:00:00Z', null, null, null]);
  });

  it('show each reached status’s stamp, skipped ones unstamped', () => {
    const steps = statusSteps({ ...base, status: 'resolved', identified_at: '2026-11-20T09:00:00Z', resolved_at: '2026-11-20T11:00:00Z' });
    expect(steps.map((s) => s.at)).toEqual(['2026-11-20T08:00:00Z', '2026-11-20T09:00:00Z', null, '2026-11-20T11:00:00Z']);
    expect(steps.find((s) => s.current)?.label).toBe('Resolved');
  });

  it('keep later stamps after going back (reopened), marking the earlier status current', () => {
    const steps = statusSteps({ ...base, status: 'identified', identified_at: 'i', resolved_at: 'r' });
    expect(steps.find((s) => s.current)?.status).toBe('identified');
    expect(steps[3]?.at).toBe('r');
  });
});
