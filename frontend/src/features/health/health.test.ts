import { describe, expect, it } from 'vitest';
import { backlogOf, healthOf, healthProblems } from './health';

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
      queue: null,
    });
    expect(health.ok).toBe(false);
    expect(healthProblems(health)).toEqual([
      'worker: no parse worker has reported in the last 30 s. Uploads are kept and will be parsed once a worker is running again.',
    ]);
  });

  it('is quiet when every part is up', () => {
    const up = { ok: true, detail: 'answering' };
    const queue = { queued: 3, parsing: 1, oldest_queued_s: 20, broker_messages: 3, uploads_in_flight: 0 };
    const health = healthOf({ status: 'ok', version: '0.1.0', checks: { database: up, broker: up, worker: up }, queue });
    expect(health.ok).toBe(true);
    expect(healthProblems(health)).toEqual([]);
    expect(health.backlog).toBeNull();
  });

  it('says when parsing has fallen far behind the uploads', () => {
    const queue = { queued: 37, parsing: 2, oldest_queued_s: 250, broker_messages: 37, uploads_in_flight: 4 };
    expect(backlogOf(queue)).toBe(
      'Parsing is behind: 37 captures wait for a worker, the oldest for 4 min. They are parsed in turn; more workers catch up sooner.',
    );
    expect(backlogOf({ ...queue, oldest_queued_s: 119 })).toBeNull();
    expect(backlogOf(null)).toBeNull();
  });
});
