import { describe, expect, it } from 'vitest';
import type { IncidentStorage } from './api';
import { compactCount, rowsTitle, storageText } from './storageText';

const storage = (over: Partial<IncidentStorage>): IncidentStorage => ({
  incident_id: 1,
  captures: 1,
  trashed_captures: 0,
  raw_bytes: 0,
  shared_raw_bytes: 0,
  rows: {},
  ...over,
});

describe('storage line', () => {
  it('says the bytes, the shared part and the rows', () => {
    const s = storage({ raw_bytes: 1.2 * 1024 ** 3, shared_raw_bytes: 300 * 1024 ** 2, rows: { samples: 12_000_000, syscalls: 300_000 } });
    expect(storageText(s)).toBe('Stores 1.20 GiB of uploads (300 MiB shared with other incidents), 12.3M rows');
  });

  it('leaves out the shared part when nothing is shared', () => {
    expect(storageText(storage({ raw_bytes: 2048, rows: { samples: 1 } }))).toBe('Stores 2.00 KiB of uploads, 1 row');
    expect(storageText(storage({}))).toBe('Stores 0 B of uploads, 0 rows');
  });

  it('rounds counts to a glance', () => {
    expect([999, 1_000, 12_345, 999_499, 12_300_000, 4_560_000_000].map(compactCount)).toEqual(['999', '1k', '12.3k', '999k', '12.3M', '4.6G']);
  });

  it('lists exact counts per table in the title, largest first, with the trashed captures', () => {
    expect(rowsTitle(storage({ rows: { syscalls: 4_100, samples: 12_300_000, locks: 0 }, trashed_captures: 1 }))).toBe(
      'samples: 12,300,000 · syscalls: 4,100 · includes 1 capture(s) in the trash',
    );
  });
});
