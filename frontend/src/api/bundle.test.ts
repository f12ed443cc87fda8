import { describe, expect, it } from 'vitest';
import { bundleImportUrl, decodeBundleImport, decodeRedactionPreview } from './bundle';
import { DecodeError } from './decode';

const policy = {
  rules: { hostnames: true, users: false },
  path_prefixes: ['/home/'],
  path_depth: 1,
  hash_symbols: false,
  custom: [{ name: 'ticket', pattern: 'ACME-\\d+', enabled: true }],
};

describe('bundle decoders', () => {
  it('reads a preview: rules with examples in context, and the policy to send back', () => {
    const preview = decodeRedactionPreview({
      rules: [
        {
          id: 'hostnames',
          label: 'Host names',
          enabled: true,
          matches: 3,
          examples: [{ source: 'capture 4 host', before: '', match: 'db-secret-7', after: '', replacement: 'host-1' }],
        },
      ],
      policy,
      sources: 12,
    });
    expect(preview.rules[0]?.examples[0]?.replacement).toBe('host-1');
    expect(preview.policy).toEqual(policy);
    expect(preview.sources).toBe(12);
  });

  it('refuses a policy whose rule switch is not a boolean, naming where', () => {
    expect(() => decodeRedactionPreview({ rules: [], policy: { ...policy, rules: { hostnames: 'yes' } }, sources: 0 })).toThrow(
      new DecodeError('preview.policy.rules.hostnames', 'boolean', 'yes'),
    );
  });

  it('reads an import answer and builds the import URL', () => {
    expect(decodeBundleImport({ incident_id: 9, captures: [{ id: 3, filename: 'cpu.perf.txt', host: null }], skipped: [] })).toEqual({
      incident_id: 9,
      captures: [{ id: 3, filename: 'cpu.perf.txt', host: null }],
      skipped: [],
    });
    expect(bundleImportUrl('stallscope incident 4.zip')).toBe('/api/bundles?filename=stallscope+incident+4.zip');
  });
});
