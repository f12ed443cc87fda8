import { describe, expect, it } from 'vitest';
import { chromeTraceUrl, flameExportUrl, foldedUrl } from './endpoints';

describe('interop export URLs', () => {
  it('asks for a profile of exactly the view the folded download gives', () => {
    const q = { captures: [3, 4], source: 'off-cpu', state: 'D', comm: 'db worker', start: '2026-11-21T08:00:00.000000Z' };
    const folded = new URL(foldedUrl(q), 'http://localhost');
    const pprof = new URL(flameExportUrl(q, 'pprof'), 'http://localhost');
    expect(pprof.pathname).toBe('/api/flame/export');
    expect(pprof.searchParams.get('format')).toBe('pprof');
    pprof.searchParams.delete('format');
    expect(pprof.searchParams.toString()).toBe(folded.searchParams.toString());
    expect(new URL(flameExportUrl(q, 'speedscope'), 'http://localhost').searchParams.get('format')).toBe('speedscope');
  });

  it('sends a timeline selection with microsecond UTC bounds, and leaves out what is not chosen', () => {
    const url = new URL(
      chromeTraceUrl({ incident: 7, captures: [1, 2], hosts: ['db1'], fromUs: 1795248000000001, toUs: 1795248004500000 }),
      'http://localhost',
    );
    expect(url.pathname).toBe('/api/timeline/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      incident: '7',
      format: 'chrome',
      captures: '1,2',
      hosts: 'db1',
      start: '2026-11-21T08:00:00.000001Z',
      end: '2026-11-21T08:00:04.500000Z',
    });
    const open = new URL(chromeTraceUrl({ incident: 7, captures: [], hosts: [], fromUs: null, toUs: null }), 'http://localhost');
    expect(Object.fromEntries(open.searchParams)).toEqual({ incident: '7', format: 'chrome' });
  });
});
