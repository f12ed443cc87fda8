import { describe, expect, it } from 'vitest';
import { healthOf, healthProblems } from './health';

describe('health', () => {
  it('names each part that is down and what it means for uploads', () => {
    const health = healthOf({
      status: 'unavailable',
      version: '0.1.0',
      checks: {
        database: { ok: true, detail: 'answering' },
        broker: { ok: true, detail: '0 parse messages waiting' },
        worker: { ok: false, detail: 'no parse worker has reported in the last 30 s' },
      },
    });
    expect(health.ok).toBe(false);
    expect(healthProblems(health)).toEqual([
      'worker: no parse worker has reported in the last 30 s. Uploads are kept and will be parsed once a worker is running again.',
    ]);
  });

  it('is quiet when every part is up', () => {
    const up = { ok: true, detail: 'answering' };
    const health = healthOf({ status: 'ok', version: '0.1.0', checks: { database: up, broker: up, worker: up } });
    expect(health.ok).toBe(true);
    expect(healthProblems(health)).toEqual([]);
  });
});
