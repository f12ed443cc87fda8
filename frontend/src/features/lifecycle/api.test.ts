import { describe, expect, it } from 'vitest';
import { DecodeError, decodeIncident } from '../../api/decode';
import { decodeRetention, decodeStorage, decodeTrash } from './api';

const incident = { id: 1, title: 't', severity: 'sev2', started_at: 'a', summary: '', created_at: 'b', capture_count: 0 };

describe('lifecycle decoders', () => {
  it('read an incident’s status, stamps and write-up, investigating when the server does not say', () => {
    expect(decodeIncident(incident)).toMatchObject({ status: 'investigating', identified_at: null, resolved_at: null, root_cause: '', remediation: '' });
    const resolved = decodeIncident({ ...incident, status: 'resolved', identified_at: 'x', resolved_at: 'y', root_cause: 'NFS', remediation: null });
    expect(resolved).toMatchObject({ status: 'resolved', identified_at: 'x', mitigated_at: null, resolved_at: 'y', root_cause: 'NFS', remediation: '' });
    expect(() => decodeIncident({ ...incident, status: 'closed' })).toThrow(/incident\.status/);
  });

  it('read the trash and name the bad field', () => {
    const raw = {
      trash_days: 7,
      incidents: [{ id: 3, title: 'db', deleted_at: 'd', purge_after: 'p', capture_count: 2 }],
      captures: [{ id: 9, incident_id: 4, incident_title: 'api', filename: 'f.txt', size_bytes: 10, deleted_at: 'd', purge_after: 'p' }],
    };
    expect(decodeTrash(raw)).toEqual(raw);
    expect(() => decodeTrash({ ...raw, captures: [{ ...raw.captures[0], size_bytes: '10' }] })).toThrow(/trash\.captures\[0\]\.size_bytes/);
  });

  it('keep never as null in the retention policy', () => {
    expect(decodeRetention({ resolved_after_days: null, failed_after_days: 30, trash_days: 7 })).toEqual({
      resolved_after_days: null,
      failed_after_days: 30,
      trash_days: 7,
    });
    expect(() => decodeRetention({ resolved_after_days: null, failed_after_days: 30 })).toThrow(DecodeError);
  });

  it('read storage with its rows per table', () => {
    const raw = { incident_id: 1, captures: 2, trashed_captures: 0, raw_bytes: 5, shared_raw_bytes: 1, rows: { samples: 3, syscalls: 4 } };
    expect(decodeStorage(raw)).toEqual(raw);
    expect(() => decodeStorage({ ...raw, rows: { samples: 'many' } })).toThrow(/storage\.rows\.samples/);
  });
});
