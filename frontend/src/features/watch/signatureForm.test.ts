import { describe, expect, it } from 'vitest';
import type { Signature } from './api';
import {
  appliesTo,
  draftOfSignature,
  EMPTY_SIGNATURE_DRAFT,
  formatCooldown,
  formatThresholds,
  minutesOfSeconds,
  percentOfShare,
  signatureOf,
  type SignatureDraft,
} from './signatureForm';

const stored: Signature = {
  id: 3,
  name: 'fsync stalls',
  pattern: 'do_fsync',
  source: 'off-cpu',
  state: 'D',
  process: '^postgres',
  min_share: 0.07,
  min_ms: 250,
  cooldown_s: 5400,
  enabled: false,
  description: 'WAL on the slow volume',
  created_at: '2026-12-01T10:00:00Z',
  updated_at: '2026-12-01T10:00:00Z',
};

const draft = (changes: Partial<SignatureDraft>): SignatureDraft => ({ ...EMPTY_SIGNATURE_DRAFT, name: 'n', pattern: 'p', ...changes });

describe('signature form: percent and minutes', () => {
  it('shows a share as a percent and seconds as minutes, without float noise', () => {
    expect(percentOfShare(0.07)).toBe('7');
    expect(percentOfShare(0.001)).toBe('0.1');
    expect(percentOfShare(1)).toBe('100');
    expect(minutesOfSeconds(1800)).toBe('30');
    expect(minutesOfSeconds(90)).toBe('1.5');
  });

  it('reads a percent back as a share and minutes as whole seconds', () => {
    const out = signatureOf(draft({ minSharePercent: '5', cooldownMinutes: '2.5' }));
    expect(out).toMatchObject({ body: { min_share: 0.05, cooldown_s: 150 } });
    expect(signatureOf(draft({ minSharePercent: ' 0.5 ' }))).toMatchObject({ body: { min_share: 0.005 } });
    expect(signatureOf(draft({ cooldownMinutes: '0' }))).toMatchObject({ body: { cooldown_s: 0 } });
  });

  it('round-trips a stored signature', () => {
    const d = draftOfSignature(stored);
    expect(d).toEqual({
      name: 'fsync stalls',
      pattern: 'do_fsync',
      source: 'off-cpu',
      state: 'D',
      process: '^postgres',
      minSharePercent: '7',
      minMs: '250',
      cooldownMinutes: '90',
      enabled: false,
      description: 'WAL on the slow volume',
    });
    expect(signatureOf(d)).toEqual({
      body: {
        name: stored.name,
        pattern: stored.pattern,
        source: stored.source,
        state: stored.state,
        process: stored.process,
        min_share: stored.min_share,
        min_ms: stored.min_ms,
        cooldown_s: stored.cooldown_s,
        enabled: stored.enabled,
        description: stored.description,
      },
    });
  });

  it('sends blanks as no threshold, and the defaults of a new signature', () => {
    expect(signatureOf({ ...EMPTY_SIGNATURE_DRAFT, name: ' kretprobes ', pattern: 'kretprobe_' })).toEqual({
      body: {
        name: 'kretprobes',
        pattern: 'kretprobe_',
        source: 'cpu',
        state: null,
        process: null,
        min_share: null,
        min_ms: null,
        cooldown_s: 1800,
        enabled: true,
        description: '',
      },
    });
  });
});

describe('signature form: fields by source', () => {
  it('offers state and min time for off-CPU rules only', () => {
    expect(appliesTo('state', 'off-cpu')).toBe(true);
    expect(appliesTo('minMs', 'off-cpu')).toBe(true);
    expect(appliesTo('state', 'cpu')).toBe(false);
    expect(appliesTo('minMs', 'cpu')).toBe(false);
    for (const field of ['name', 'pattern', 'process', 'minSharePercent', 'cooldownMinutes', 'enabled', 'description'] as const) {
      expect(appliesTo(field, 'cpu')).toBe(true);
    }
  });

  it('leaves the judging of a finding rule to its detector: a pattern over detector ids, no thresholds', () => {
    for (const field of ['state', 'process', 'minSharePercent', 'minMs'] as const) expect(appliesTo(field, 'finding')).toBe(false);
    for (const field of ['name', 'pattern', 'cooldownMinutes', 'enabled', 'description'] as const) expect(appliesTo(field, 'finding')).toBe(true);
    const finding = draft({ source: 'finding', pattern: 'lock-convoy|global-spin-lock', state: 'D', process: 'java', minSharePercent: '5', minMs: '9' });
    expect(signatureOf(finding)).toMatchObject({
      body: { source: 'finding', pattern: 'lock-convoy|global-spin-lock', state: null, process: null, min_share: null, min_ms: null },
    });
  });

  it('does not send what a CPU rule cannot have, though the draft keeps it', () => {
    const cpu = draft({ source: 'cpu', state: 'D', minMs: '50' });
    expect(signatureOf(cpu)).toMatchObject({ body: { source: 'cpu', state: null, min_ms: null } });
    expect(signatureOf({ ...cpu, source: 'off-cpu' })).toMatchObject({ body: { source: 'off-cpu', state: 'D', min_ms: 50 } });
  });

  it('does not judge a hidden field', () => {
    expect('body' in signatureOf(draft({ source: 'cpu', minMs: 'lots', state: 'too long a state' }))).toBe(true);
  });
});

describe('signature form: problems', () => {
  it('names the field in trouble', () => {
    expect(signatureOf(draft({ name: '  ' }))).toEqual({ problem: 'Name: required', field: 'name' });
    expect(signatureOf(draft({ pattern: '(fsync' }))).toEqual({
      problem: 'Pattern: the pattern expression is not a regular expression: unterminated group',
      field: 'pattern',
    });
    expect(signatureOf(draft({ process: '*sql' }))).toMatchObject({ field: 'process' });
    expect(signatureOf(draft({ minSharePercent: '150' }))).toEqual({ problem: 'Min share: at most 100 %', field: 'minSharePercent' });
    expect(signatureOf(draft({ minSharePercent: '-1' }))).toEqual({ problem: 'Min share: a number of %, or blank', field: 'minSharePercent' });
    expect(signatureOf(draft({ source: 'off-cpu', minMs: '5ms' }))).toEqual({ problem: 'Min time: a number of ms, or blank', field: 'minMs' });
    expect(signatureOf(draft({ source: 'off-cpu', state: 'TOOLONGST' }))).toMatchObject({ field: 'state' });
    expect(signatureOf(draft({ cooldownMinutes: '' }))).toEqual({ problem: 'Cool-down: required', field: 'cooldownMinutes' });
    expect(signatureOf(draft({ cooldownMinutes: '50000' }))).toEqual({ problem: 'Cool-down: at most 43200 minutes', field: 'cooldownMinutes' });
  });

  it('keeps the pattern exactly as typed: spaces can be part of it', () => {
    expect(signatureOf(draft({ pattern: 'std::vector ' }))).toMatchObject({ body: { pattern: 'std::vector ' } });
  });
});

describe('signature table words', () => {
  it('says the thresholds in a phrase', () => {
    expect(formatThresholds({ source: 'cpu', min_share: 0.05, min_ms: null })).toBe('≥ 5% of CPU');
    expect(formatThresholds({ source: 'off-cpu', min_share: 0.02, min_ms: 50 })).toBe('≥ 2% and ≥ 50 ms off-CPU');
    expect(formatThresholds({ source: 'off-cpu', min_share: null, min_ms: null })).toBe('any match');
    expect(formatThresholds({ source: 'finding', min_share: null, min_ms: null })).toBe('a warning or critical finding');
  });

  it('says a cool-down in minutes and hours', () => {
    expect(formatCooldown(0)).toBe('none');
    expect(formatCooldown(30)).toBe('30 s');
    expect(formatCooldown(1800)).toBe('30 min');
    expect(formatCooldown(3600)).toBe('1 h');
    expect(formatCooldown(5400)).toBe('1 h 30 min');
  });
});
