/**
 * The signature form: what a person types (a share in percent, a cool-down in minutes, blanks for
 * "no threshold") read into what `POST`/`PUT /api/signatures` take (a share from 0 to 1, seconds,
 * nulls), and back for editing. Pure.
 */
import type { Signature, SignatureRequest, SignatureSource } from './api';
import { patternProblem } from './pattern';

export interface SignatureDraft {
  name: string;
  pattern: string;
  source: SignatureSource;
  /** One scheduler state (off-CPU only); blank: any. */
  state: string;
  /** A regular expression on process names; blank: every process. */
  process: string;
  /** Percent of the window, 0 to 100; blank: no threshold. */
  minSharePercent: string;
  /** Milliseconds of off-CPU time per window (off-CPU only); blank: no threshold. */
  minMs: string;
  cooldownMinutes: string;
  enabled: boolean;
  description: string;
}

/** The fields only some sources have; the others (name, pattern, cool-down…) every rule has. */
type SourceField = 'state' | 'process' | 'minSharePercent' | 'minMs';

/**
 * Which of those each source has: a CPU sample has no scheduler state and its weight is not time
 * (CPU rules are judged by share); a finding rule leaves the judging to the detector it names.
 */
export const SOURCE_FIELDS: Record<SignatureSource, readonly SourceField[]> = {
  cpu: ['process', 'minSharePercent'],
  'off-cpu': ['state', 'process', 'minSharePercent', 'minMs'],
  finding: [],
};

const SOURCE_ONLY: readonly string[] = ['state', 'process', 'minSharePercent', 'minMs'] satisfies SourceField[];

/** Whether `field` applies to a rule over `source` (the form hides the others, and does not send them). */
export function appliesTo(field: keyof SignatureDraft, source: SignatureSource): boolean {
  return !SOURCE_ONLY.includes(field) || (SOURCE_FIELDS[source] as readonly string[]).includes(field);
}

/** The server's bounds (`watch/schemas.py`). */
export const NAME_LIMIT = 200;
export const STATE_LIMIT = 8;
export const DESCRIPTION_LIMIT = 2000;
export const COOLDOWN_MAX_MINUTES = 30 * 24 * 60;
/** The server's default cool-down, 1800 s. */
export const DEFAULT_COOLDOWN_MINUTES = 30;

export const EMPTY_SIGNATURE_DRAFT: SignatureDraft = {
  name: '',
  pattern: '',
  source: 'cpu',
  state: '',
  process: '',
  minSharePercent: '',
  minMs: '',
  cooldownMinutes: String(DEFAULT_COOLDOWN_MINUTES),
  enabled: true,
  description: '',
};

/** A number as typed back into a field: no float noise (0.07 × 100 is 7.000000000000001). */
function typed(n: number): string {
  return String(Number(n.toPrecision(12)));
}

export const percentOfShare = (share: number): string => typed(share * 100);
export const minutesOfSeconds = (seconds: number): string => typed(seconds / 60);

export function draftOfSignature(s: Signature): SignatureDraft {
  return {
    name: s.name,
    pattern: s.pattern,
    source: s.source,
    state: s.state ?? '',
    process: s.process ?? '',
    minSharePercent: s.min_share === null ? '' : percentOfShare(s.min_share),
    minMs: s.min_ms === null ? '' : typed(s.min_ms),
    cooldownMinutes: minutesOfSeconds(s.cooldown_s),
    enabled: s.enabled,
    description: s.description,
  };
}

/** What is wrong with the form, and which field to point at. */
export interface FormProblem<Field extends string> {
  problem: string;
  field: Field;
}

type Read = number | null | string;

/**
 * A number typed in a field: null when blank, the number when it is one from 0 to `max`, else the
 * sentence saying what is expected. Signs and exponents are refused: none of these fields needs them.
 */
function amount(text: string, label: string, unit: string, max: number | null, optional: boolean): Read {
  const t = text.trim();
  if (t === '') return optional ? null : `${label}: required`;
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) return `${label}: a number of ${unit}${optional ? ', or blank' : ''}`;
  const n = Number(t);
  if (max !== null && n > max) return `${label}: at most ${max} ${unit}`;
  return n;
}

/** The signature to send, or the first problem with the form. Fields that do not apply to the source are sent as null. */
export function signatureOf(draft: SignatureDraft): { body: SignatureRequest } | FormProblem<keyof SignatureDraft> {
  const has = (field: SourceField) => appliesTo(field, draft.source);
  const name = draft.name.trim();
  if (name === '') return { problem: 'Name: required', field: 'name' };
  if (name.length > NAME_LIMIT) return { problem: `Name: at most ${NAME_LIMIT} characters`, field: 'name' };

  const pattern = patternProblem(draft.pattern, 'pattern');
  if (pattern !== null) return { problem: `Pattern: ${pattern}`, field: 'pattern' };

  const state = has('state') ? draft.state.trim() : '';
  if (state.length > STATE_LIMIT) return { problem: `State: one scheduler state, such as D (at most ${STATE_LIMIT} characters)`, field: 'state' };

  // Blank means every process; anything else is an expression, checked like the pattern.
  const process = !has('process') || draft.process.trim() === '' ? null : draft.process;
  if (process !== null) {
    const p = patternProblem(process, 'process');
    if (p !== null) return { problem: `Process: ${p}`, field: 'process' };
  }

  const percent = has('minSharePercent') ? amount(draft.minSharePercent, 'Min share', '%', 100, true) : null;
  if (typeof percent === 'string') return { problem: percent, field: 'minSharePercent' };
  const minMs = has('minMs') ? amount(draft.minMs, 'Min time', 'ms', null, true) : null;
  if (typeof minMs === 'string') return { problem: minMs, field: 'minMs' };

  const cooldown = amount(draft.cooldownMinutes, 'Cool-down', 'minutes', COOLDOWN_MAX_MINUTES, false);
  if (typeof cooldown === 'string') return { problem: cooldown, field: 'cooldownMinutes' };

  const description = draft.description.trim();
  if (description.length > DESCRIPTION_LIMIT) return { problem: `Description: at most ${DESCRIPTION_LIMIT} characters`, field: 'description' };

  return {
    body: {
      name,
      pattern: draft.pattern,
      source: draft.source,
      state: state === '' ? null : state,
      process,
      min_share: percent === null ? null : percent / 100,
      min_ms: minMs,
      // The server counts whole seconds.
      cooldown_s: Math.round((cooldown ?? 0) * 60),
      enabled: draft.enabled,
      description,
    },
  };
}

/** A cool-down for the table: "30 min", "1 h 30 min", "none". */
export function formatCooldown(seconds: number): string {
  if (seconds <= 0) return 'none';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes - h * 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** The thresholds a window must reach, for the table: "≥ 5% of CPU", "≥ 2% and ≥ 50 ms off-CPU", "any match". */
export function formatThresholds(s: Pick<Signature, 'source' | 'min_share' | 'min_ms'>): string {
  if (s.source === 'finding') return 'a warning or critical finding';
  const parts: string[] = [];
  if (s.min_share !== null) parts.push(`≥ ${percentOfShare(s.min_share)}%`);
  if (s.source === 'off-cpu' && s.min_ms !== null) parts.push(`≥ ${typed(s.min_ms)} ms`);
  if (parts.length === 0) return 'any match';
  return `${parts.join(' and ')} ${s.source === 'cpu' ? 'of CPU' : 'off-CPU'}`;
}

/** Sources as the form and the table call them. */
export const SOURCE_LABELS: Record<SignatureSource, string> = {
  cpu: 'CPU samples',
  'off-cpu': 'off-CPU time',
  finding: 'detector findings',
};

/** What the pattern is searched in, by source, for the form's hint and placeholder. */
export const PATTERN_WORDS: Record<SignatureSource, { searched: string; example: string }> = {
  cpu: { searched: 'frame names', example: 'native_queued_spin_lock_slowpath' },
  'off-cpu': { searched: 'frame names', example: 'io_schedule' },
  finding: { searched: 'the ids of the built-in detectors (as findings name them)', example: 'lock-convoy|global-spin-lock' },
};

/** Scheduler states offered for off-CPU rules (any other may be typed). */
export const STATE_SUGGESTIONS: readonly { state: string; meaning: string }[] = [
  { state: 'D', meaning: 'uninterruptible sleep (disk I/O, some locks)' },
  { state: 'S', meaning: 'sleeping (waiting for an event)' },
  { state: 'R', meaning: 'runnable, preempted' },
  { state: 'I', meaning: 'idle kernel thread' },
];
