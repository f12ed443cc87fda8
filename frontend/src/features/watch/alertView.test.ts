import { describe, expect, it } from 'vitest';
import { deliveryWords, evidencePath } from './alertView';

describe('evidence path', () => {
  it('keeps the path, query and hash of an absolute console URL, whatever its origin', () => {
    expect(evidencePath('https://stallscope.example/flame?v=1&incident=4&captures=9&q=kretprobe_trampoline')).toBe(
      '/flame?v=1&incident=4&captures=9&q=kretprobe_trampoline',
    );
    expect(evidencePath('http://127.0.0.1:8000/flame?v=1&source=off-cpu&state=D#top')).toBe('/flame?v=1&source=off-cpu&state=D#top');
  });

  it('keeps a console behind a path prefix as the server wrote it', () => {
    expect(evidencePath('https://tools.example/stallscope/flame?v=1')).toBe('/stallscope/flame?v=1');
  });

  it('takes a path alone as it is', () => {
    expect(evidencePath('/flame?v=1&incident=2')).toBe('/flame?v=1&incident=2');
  });

  it('keeps the query encoded as it was', () => {
    expect(evidencePath('https://s.example/flame?q=std%3A%3Avector%3Cint%3E')).toBe('/flame?q=std%3A%3Avector%3Cint%3E');
  });

  it('refuses what is not a web address', () => {
    expect(evidencePath('javascript:alert(1)')).toBeNull();
    expect(evidencePath('http://')).toBeNull();
  });
});

describe('delivery words', () => {
  const base = { webhook: 'chat', attempts: 1, last_error: '', sent_at: null };
  it('tells a failed delivery by its last error', () => {
    expect(deliveryWords({ ...base, status: 'failed', attempts: 5, last_error: 'HTTP 500' })).toEqual({ status: 'failed', detail: 'HTTP 500 (5 attempts)' });
    expect(deliveryWords({ ...base, status: 'failed' })).toEqual({ status: 'failed', detail: 'failed after 1 attempt' });
  });

  it('tells when a delivery was sent, or that it is still tried', () => {
    expect(deliveryWords({ ...base, status: 'sent', sent_at: '2026-12-01T10:00:00Z' })).toEqual({ status: 'sent', detail: 'sent 2026-12-01T10:00:00Z (UTC)' });
    expect(deliveryWords({ ...base, status: 'pending', attempts: 0 })).toEqual({ status: 'pending', detail: 'not sent yet' });
    expect(deliveryWords({ ...base, status: 'pending', attempts: 2 })).toEqual({ status: 'pending', detail: '2 attempts so far; trying again' });
  });
});
