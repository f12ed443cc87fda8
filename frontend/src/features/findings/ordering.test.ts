import { describe, expect, it } from 'vitest';
import { finding } from './findingFixture';
import { mostSevere, orderFindings } from './ordering';

const ids = (list: { id: string }[]) => list.map((f) => f.id);

describe('orderFindings', () => {
  it('put the most severe first, then the most confident, then the one explaining most', () => {
    const list = [
      finding({ id: 'info', severity: 'info', confidence: 0.95 }),
      finding({ id: 'warn-sure', severity: 'warning', confidence: 0.9 }),
      finding({ id: 'crit', severity: 'critical', confidence: 0.5 }),
      finding({ id: 'warn-less', severity: 'warning', confidence: 0.7, score: 0.9 }),
      finding({ id: 'warn-sure-bigger', severity: 'warning', confidence: 0.9, score: 0.8 }),
    ];
    expect(ids(orderFindings(list))).toEqual(['crit', 'warn-sure-bigger', 'warn-sure', 'warn-less', 'info']);
  });

  it('move dismissed findings under the others, whatever their severity', () => {
    const dismissed = finding({ id: 'crit', severity: 'critical', verdict: { verdict: 'dismissed', note: '', at: 'x' } });
    const confirmed = finding({ id: 'info', severity: 'info', verdict: { verdict: 'confirmed', note: '', at: 'x' } });
    expect(ids(orderFindings([dismissed, confirmed]))).toEqual(['info', 'crit']);
  });

  it('leave the input untouched', () => {
    const list = [finding({ id: 'b', severity: 'info' }), finding({ id: 'a', severity: 'critical' })];
    orderFindings(list);
    expect(ids(list)).toEqual(['b', 'a']);
  });
});

describe('mostSevere', () => {
  it('pick the worst severity, or none of nothing', () => {
    expect(mostSevere([finding({ severity: 'info' }), finding({ severity: 'warning' })])).toBe('warning');
    expect(mostSevere([])).toBeNull();
  });
});
