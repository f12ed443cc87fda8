import { describe, expect, it } from 'vitest';
import { bundleImportUrl } from './bundle';

describe('bundle import', () => {
  it('names the file in the import URL', () => {
    expect(bundleImportUrl('stallscope incident 4.zip')).toBe('/api/bundles?filename=stallscope+incident+4.zip');
  });
});
