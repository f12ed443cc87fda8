import { describe, expect, it } from 'vitest';
import type { FindingsReport } from './api';
import { finding } from './findingFixture';
import { findingsPollMs, panelStatus } from './panelStatus';

const ready: FindingsReport = {
  state: 'ready',
  computed_at: '2026-11-25T21:00:00Z',
  duration_ms: 3,
  hosts: ['db-1'],
  baseline_hosts: [],
  captures_pending: 0,
  notes: ['No known pattern matched: 9 detectors ran on 2 captures.'],
  findings: [],
};

describe('panelStatus', () => {
  it('ask for captures when there are none', () => {
    expect(panelStatus(ready, 0, 0).title).toMatch(/^No captures yet/);
  });

  it('say captures are still parsing, and keep asking', () => {
    const s = panelStatus({ ...ready, state: 'computing', captures_pending: 2 }, 3, 0);
    expect(s.title).toBe('Waiting for the captures to be parsed');
    expect(s.live).toBe('2 captures still parsing: findings will be computed when they are done');
    expect(s.poll).toBe(true);
  });

  it('use the server’s wording when nothing matched', () => {
    const s = panelStatus(ready, 2, 0);
    expect(s.title).toBe('No known pattern matched: 9 detectors ran on 2 captures.');
    expect(s.poll).toBe(false);
    expect(panelStatus({ ...ready, notes: [] }, 2, 0).title).toBe('No known pattern matched these captures.');
  });

  it('show no empty state over findings, but say they are being recomputed', () => {
    const s = panelStatus({ ...ready, state: 'computing', findings: [finding()] }, 2, 0);
    expect(s.title).toBeNull();
    expect(s.live).toBe('Computing findings…');
  });
});

describe('findingsPollMs', () => {
  it('poll every 2 s while computing or while captures parse, not once ready', () => {
    expect(findingsPollMs({ ...ready, state: 'computing' })).toBe(2000);
    expect(findingsPollMs({ ...ready, captures_pending: 1 })).toBe(2000);
    expect(findingsPollMs(ready)).toBe(false);
    expect(findingsPollMs(undefined)).toBe(false);
  });
});
