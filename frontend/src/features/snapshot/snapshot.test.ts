import { describe, expect, it } from 'vitest';
import { filterSections, readSnapshot } from './snapshot';

const doc = {
  stallscope: 'snapshot',
  version: 1,
  host: 'db1',
  taken_at_ns: 1763683200000000000,
  sections: {
    uname: 'Linux db1 6.1.0',
    meminfo: { MemTotal: '16 GB', MemFree: 1024 },
    dmesg: null,
    psi: { error: 'permission denied' },
    mounts: ['/ ext4', '/data xfs'],
  },
};

describe('snapshot sections', () => {
  it('reads text, key/value, list and failed sections', () => {
    const s = readSnapshot(doc);
    expect(s.host).toBe('db1');
    expect(s.sections.map((x) => x.name)).toEqual(['dmesg', 'meminfo', 'mounts', 'psi', 'uname']);
    expect(s.sections[0]?.error).toMatch(/failed/);
    expect(s.sections[1]?.entries).toEqual([
      { key: 'MemTotal', value: '16 GB' },
      { key: 'MemFree', value: '1024' },
    ]);
    expect(s.sections[3]?.error).toBe('permission denied');
    expect(s.sections[4]?.entries).toEqual([{ key: '', value: 'Linux db1 6.1.0' }]);
  });
  it('tolerates garbage', () => {
    expect(readSnapshot('nope').sections).toEqual([]);
  });
  it('filters by section name, key or value', () => {
    const { sections } = readSnapshot(doc);
    expect(filterSections(sections, 'mem').map((s) => s.name)).toEqual(['meminfo']);
    expect(filterSections(sections, 'memfree')[0]?.entries).toEqual([{ key: 'MemFree', value: '1024' }]);
    expect(filterSections(sections, 'xfs')[0]?.entries).toEqual([{ key: '1', value: '/data xfs' }]);
    expect(filterSections(sections, 'denied').map((s) => s.name)).toEqual(['psi']);
  });
  it('reads a text snapshot’s take and keeps its unmapped sections as text', () => {
    const s = readSnapshot({ ...doc, take: { index: 1, label: 'end', line: 157 }, text_sections: { 'top -bn1': 'top - 17:13' } });
    expect(s.take).toEqual({ index: 1, label: 'end' });
    expect(s.sections.at(-1)).toEqual({ name: 'text: top -bn1', error: null, entries: [{ key: '', value: 'top - 17:13' }] });
    expect(readSnapshot(doc).take).toBeNull();
  });
});
