import { describe, expect, it } from 'vitest';
import { decodeHealth, healthProblems } from './health';

describe('health', () => {
  it('names each part that is down and what it means for uploads', () => {
    const health = decodeHealth({
      status: 'unavailable',
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
    const health = decodeHealth({ status: 'ok', checks: { database: { ok: true, detail: 'answering' } } });
    expect(health.ok).toBe(true);
    expect(healthProblems(health)).toEqual([]);
  });

  it('treats an answer it cannot read as not ok', () => {
    expect(decodeHealth('<html>502</html>').ok).toBe(false);
    expect(decodeHealth({ status: 'ok', checks: { x: 'nonsense' } }).checks).toEqual({});
  });
});
