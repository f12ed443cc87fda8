import { describe, expect, it } from 'vitest';
import { withUploadOptions } from './upload';

describe('withUploadOptions', () => {
  const url = '/api/incidents/3/captures?filename=app.csv';

  it('leaves the URL alone when no time column is named', () => {
    expect(withUploadOptions(url, {})).toBe(url);
    expect(withUploadOptions(url, { timeColumn: '  ' })).toBe(url);
  });

  it('adds the time column, trimmed and encoded', () => {
    expect(withUploadOptions(url, { timeColumn: ' epoch_us ' })).toBe(`${url}&time_column=epoch_us`);
    expect(withUploadOptions(url, { timeColumn: '@timestamp' })).toBe(`${url}&time_column=%40timestamp`);
    expect(withUploadOptions(url, { timeColumn: 'when (UTC)' })).toBe(`${url}&time_column=when+%28UTC%29`);
  });

  it('adds a wall-clock start for captures nothing aligns', () => {
    expect(withUploadOptions(url, { start: '2026-11-25T14:02:10.000Z' })).toBe(`${url}&start=2026-11-25T14%3A02%3A10.000Z`);
    expect(withUploadOptions(url, { timeColumn: 'ts', start: ' ' })).toBe(`${url}&time_column=ts`);
  });

  it('starts the query when the URL has none', () => {
    expect(withUploadOptions('/api/x', { timeColumn: 'ts' })).toBe('/api/x?time_column=ts');
  });
});
