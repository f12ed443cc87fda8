import { describe, expect, it } from 'vitest';
import type { Incident } from '../../api/types';
import { draftOf, isEmptyPatch, patchOf } from './editForm';

const incident: Incident = {
  id: 4,
  title: 'checkout p99',
  severity: 'sev2',
  started_at: 's',
  summary: 'slow',
  created_at: 'c',
  capture_count: 1,
  visibility: 'team',
  members: [],
  status: 'investigating',
  identified_at: null,
  mitigated_at: null,
  resolved_at: null,
  root_cause: '',
  remediation: '',
  updated_at: null,
  watch_host: null,
};

describe('incident edit form', () => {
  it('sends nothing when nothing changed, spaces included', () => {
    const draft = { ...draftOf(incident), title: ' checkout p99 ', summary: 'slow\n' };
    const { patch, problem } = patchOf(incident, draft);
    expect(problem).toBeNull();
    expect(isEmptyPatch(patch)).toBe(true);
  });

  it('sends only the changed fields, trimmed', () => {
    const draft = { ...draftOf(incident), severity: 'sev1' as const, rootCause: '  NFS server stalled fsync\n', remediation: 'moved to local disk' };
    expect(patchOf(incident, draft).patch).toEqual({ severity: 'sev1', root_cause: 'NFS server stalled fsync', remediation: 'moved to local disk' });
  });

  it('clears a root cause that was set', () => {
    const set = { ...incident, root_cause: 'disk' };
    expect(patchOf(set, { ...draftOf(set), rootCause: ' ' }).patch).toEqual({ root_cause: '' });
  });

  it('refuses a blank title', () => {
    expect(patchOf(incident, { ...draftOf(incident), title: '   ' }).problem).toMatch(/title/);
  });

  it('restricts to the typed members, and back to the team without members', () => {
    const restricted = patchOf(incident, { ...draftOf(incident), visibility: 'restricted', members: 'ana, bo,ana' }).patch;
    expect(restricted).toEqual({ visibility: 'restricted', members: ['ana', 'bo'] });
    const was = { ...incident, visibility: 'restricted' as const, members: ['ana', 'bo'] };
    expect(draftOf(was).members).toBe('ana, bo');
    expect(patchOf(was, draftOf(was)).patch).toEqual({});
    expect(patchOf(was, { ...draftOf(was), members: 'ana' }).patch).toEqual({ members: ['ana'] });
    expect(patchOf(was, { ...draftOf(was), visibility: 'team' }).patch).toEqual({ visibility: 'team' });
  });
});
