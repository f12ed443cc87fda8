import { describe, expect, it } from 'vitest';
import type { Capture } from '../../api/types';
import { base } from '../captures/captureFixture';
import { bundleRequest, byHost, exportable, initialChoices, parseInstant, requestKey, savedViews, type ExportChoices } from './exportForm';

const cap = (id: number, host: string | null, status: Capture['status'] = 'ready'): Capture => ({ ...base, id, host, status });
const captures = [cap(1, 'web-2'), cap(2, 'db-7'), cap(3, null), cap(4, 'db-7', 'failed'), cap(5, 'db-7', 'partial')];

function request(choices: Partial<ExportChoices>) {
  const made = bundleRequest({ ...initialChoices(), ...choices }, captures);
  if ('problem' in made) throw new Error(made.problem);
  return made.request;
}

describe('the export request', () => {
  it('sends everything with the default redaction when nothing is changed', () => {
    expect(request({})).toEqual({ findings: true, annotations: true, postmortem: true, raw: false, redaction: { mode: 'default' } });
  });

  it('names the ticked captures once one is unticked, and sends the options and the time range', () => {
    const sent = request({ unticked: new Set([2]), raw: true, findings: false, start: '2024-05-01T10:00:00+02:00', end: '2024-05-01 09:00' });
    expect(sent.captures).toEqual([1, 3, 5]);
    expect(sent.raw).toBe(true);
    expect(sent.findings).toBe(false);
    expect(sent.start).toBe('2024-05-01T08:00:00.000Z');
    expect(sent.end).toBe('2024-05-01T09:00:00.000Z');
    expect(sent.redaction).toEqual({ mode: 'default' });
  });

  it('sends no policy with none, and default while custom has no policy yet', () => {
    expect(request({ mode: 'none' }).redaction).toEqual({ mode: 'none' });
    expect(request({ mode: 'custom' }).redaction).toEqual({ mode: 'default' });
  });

  it('says what stops a request', () => {
    const all = new Set(exportable(captures).map((c) => c.id));
    expect(bundleRequest({ ...initialChoices(), unticked: all }, captures)).toEqual({ problem: 'Tick at least one capture.' });
    expect(bundleRequest({ ...initialChoices(), start: 'yesterday' }, captures)).toHaveProperty('problem');
    expect(bundleRequest({ ...initialChoices(), start: '2024-05-01T10:00Z', end: '2024-05-01T09:00Z' }, captures)).toEqual({
      problem: 'The time range ends before it starts.',
    });
  });

  it('gives a different key to every change, so a preview goes stale', () => {
    const keys = [request({}), request({ raw: true }), request({ unticked: new Set([1]) }), request({ mode: 'none' })].map(requestKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('saved views', () => {
  it('takes ids, short links and whole URLs, once each, in order', () => {
    expect(savedViews(' Xk3d9aQe, /s/AbC_-12x  https://console.example/s/Xk3d9aQe?x=1 ')).toEqual(['Xk3d9aQe', 'AbC_-12x']);
    expect(savedViews('')).toEqual([]);
  });
  it('go into the request', () => {
    const made = bundleRequest({ ...initialChoices(), views: 'Xk3d9aQe' }, []);
    expect('request' in made && made.request.views).toEqual(['Xk3d9aQe']);
  });
});

describe('parseInstant', () => {
  it('reads ISO times, UTC unless a zone is given', () => {
    expect(parseInstant('  ')).toEqual({ iso: null });
    expect(parseInstant('2024-05-01')).toEqual({ iso: '2024-05-01T00:00:00.000Z' });
    expect(parseInstant('2024-05-01T10:15:30.5z')).toEqual({ iso: '2024-05-01T10:15:30.500Z' });
    expect(parseInstant('2024-05-01T10:15-0130')).toEqual({ iso: '2024-05-01T11:45:00.000Z' });
    expect(parseInstant('10:15')).toHaveProperty('problem');
  });
});

describe('captures by host', () => {
  it('lists parsed captures only, hosts in name order, no host last', () => {
    expect(byHost(exportable(captures)).map((g) => [g.host, g.captures.map((c) => c.id)])).toEqual([
      ['db-7', [2, 5]],
      ['web-2', [1]],
      ['', [3]],
    ]);
  });
});
