import type { ReactNode } from 'react';
import { SIGNATURE_SOURCES, type Signature, type SignatureRequest } from './api';
import { EditorForm } from './EditorForm';
import { useSaveSignature } from './queries';
import {
  appliesTo,
  COOLDOWN_MAX_MINUTES,
  DESCRIPTION_LIMIT,
  draftOfSignature,
  EMPTY_SIGNATURE_DRAFT,
  NAME_LIMIT,
  PATTERN_WORDS,
  signatureOf,
  SOURCE_LABELS,
  STATE_LIMIT,
  STATE_SUGGESTIONS,
  type SignatureDraft,
} from './signatureForm';
import { PATTERN_LIMIT } from './pattern';
import { useEditorDraft } from './useEditorDraft';

/** A new signature (`signature` null) or changes to one; Enter saves, Esc cancels. */
export function SignatureEditor({ signature, onDone }: { signature: Signature | null; onDone: () => void }) {
  const save = useSaveSignature();
  const { id, draft, set, problem, fieldId, problemId, invalid, submit } = useEditorDraft<SignatureDraft, SignatureRequest>(
    () => (signature ? draftOfSignature(signature) : EMPTY_SIGNATURE_DRAFT),
    signatureOf,
    (body) => save.mutate({ id: signature?.id ?? null, body }, { onSuccess: onDone }),
    onDone,
  );

  const offCpu = draft.source === 'off-cpu';
  const finding = draft.source === 'finding';
  const title = signature ? `Edit signature “${signature.name}”` : 'New signature';

  return (
    <EditorForm
      title={title}
      onSubmit={submit}
      onCancel={onDone}
      problem={problem?.problem ?? null}
      problemId={problemId}
      saving={save.isPending}
      saveError={save.error}
      saveErrorTitle="Could not save the signature:"
      submitLabel={signature ? 'Save' : 'Create signature'}
    >
      <div className="form__grid">
        <label htmlFor={fieldId('name')}>Name</label>
        <input
          id={fieldId('name')}
          name="name"
          autoFocus
          maxLength={NAME_LIMIT}
          placeholder="kretprobe on the hot path"
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          {...invalid('name')}
        />

        <label htmlFor={fieldId('pattern')}>Pattern</label>
        <div className="stack stack--tight">
          <input
            id={fieldId('pattern')}
            name="pattern"
            className={problem?.field === 'pattern' ? 'mono invalid' : 'mono'}
            maxLength={PATTERN_LIMIT}
            spellCheck={false}
            autoComplete="off"
            placeholder={PATTERN_WORDS[draft.source].example}
            value={draft.pattern}
            onChange={(e) => set('pattern', e.target.value)}
            aria-describedby={problem?.field === 'pattern' ? `${id}-pattern-help ${problemId}` : `${id}-pattern-help`}
            aria-invalid={problem?.field === 'pattern' ? true : undefined}
          />
          <span id={`${id}-pattern-help`} className="muted small">
            A regular expression (Python&apos;s) searched in {PATTERN_WORDS[draft.source].searched}; case-sensitive unless it starts
            with <code>(?i)</code>.
          </span>
        </div>

        <label htmlFor={fieldId('source')}>Source</label>
        <div className="row">
          <select
            id={fieldId('source')}
            name="source"
            value={draft.source}
            onChange={(e) => set('source', SIGNATURE_SOURCES.find((s) => s === e.target.value) ?? 'cpu')}
          >
            {SIGNATURE_SOURCES.map((s) => (
              <option key={s} value={s}>
                {SOURCE_LABELS[s]}
              </option>
            ))}
          </select>
          {finding ? (
            <span className="muted small">fires when a detector it names finds its cause (warning or critical) in a watch round</span>
          ) : null}
        </div>

        {appliesTo('state', draft.source) ? (
          <>
            <label htmlFor={fieldId('state')}>State</label>
            <div className="row">
              <input
                id={fieldId('state')}
                name="state"
                list={`${id}-states`}
                size={6}
                maxLength={STATE_LIMIT}
                placeholder="any"
                value={draft.state}
                onChange={(e) => set('state', e.target.value)}
                {...invalid('state')}
              />
              <datalist id={`${id}-states`}>
                {STATE_SUGGESTIONS.map((s) => (
                  <option key={s.state} value={s.state}>
                    {s.meaning}
                  </option>
                ))}
              </datalist>
              <span className="muted small">one scheduler state, such as D (blank: any)</span>
            </div>
          </>
        ) : null}

        {appliesTo('process', draft.source) ? (
          <>
            <label htmlFor={fieldId('process')}>Process</label>
            <div className="row">
              <input
                id={fieldId('process')}
                name="process"
                className={problem?.field === 'process' ? 'mono invalid' : 'mono'}
                spellCheck={false}
                autoComplete="off"
                maxLength={PATTERN_LIMIT}
                placeholder="every process"
                value={draft.process}
                onChange={(e) => set('process', e.target.value)}
                aria-invalid={problem?.field === 'process' ? true : undefined}
                aria-describedby={problem?.field === 'process' ? problemId : undefined}
              />
              <span className="muted small">a regular expression on process names (blank: every process)</span>
            </div>
          </>
        ) : null}

        {appliesTo('minSharePercent', draft.source) ? (
          <DecimalField
            label="Min share"
            id={fieldId('minSharePercent')}
            name="min_share"
            placeholder="any"
            value={draft.minSharePercent}
            onChange={(v) => set('minSharePercent', v)}
            invalid={invalid('minSharePercent')}
          >
            % of the window&apos;s {offCpu ? 'off-CPU time in that state' : 'CPU samples, every process'} (blank: any match)
          </DecimalField>
        ) : null}

        {appliesTo('minMs', draft.source) ? (
          <DecimalField
            label="Min time"
            id={fieldId('minMs')}
            name="min_ms"
            placeholder="any"
            value={draft.minMs}
            onChange={(v) => set('minMs', v)}
            invalid={invalid('minMs')}
          >
            ms of matched off-CPU time per window (blank: any)
          </DecimalField>
        ) : null}

        <DecimalField
          label="Cool-down"
          id={fieldId('cooldownMinutes')}
          name="cooldown"
          value={draft.cooldownMinutes}
          onChange={(v) => set('cooldownMinutes', v)}
          invalid={invalid('cooldownMinutes')}
        >
          minutes (0 to {COOLDOWN_MAX_MINUTES}): matches within this long of an alert join it instead of raising a new one
        </DecimalField>

        <label htmlFor={fieldId('enabled')}>Enabled</label>
        <div className="row">
          <input
            id={fieldId('enabled')}
            type="checkbox"
            name="enabled"
            aria-describedby={`${id}-enabled-hint`}
            checked={draft.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
          <span id={`${id}-enabled-hint`} className="muted small">
            checked on every watch capture (untick to keep the rule without alerts)
          </span>
        </div>

        <label htmlFor={fieldId('description')}>Description</label>
        <textarea
          id={fieldId('description')}
          name="description"
          rows={2}
          maxLength={DESCRIPTION_LIMIT}
          placeholder="Why it matters, what to do when it fires."
          value={draft.description}
          onChange={(e) => set('description', e.target.value)}
          {...invalid('description')}
        />
      </div>
    </EditorForm>
  );
}

interface DecimalFieldProps {
  label: string;
  id: string;
  name: string;
  value: string;
  placeholder?: string;
  onChange: (value: string) => void;
  /** The field's invalid marks (`useEditorDraft`'s `invalid`). */
  invalid: object;
  /** What the number means, beside it. */
  children: ReactNode;
}

/** A short number typed as text (checked on save), with what it means beside it. */
function DecimalField({ label, id, name, value, placeholder, onChange, invalid, children }: DecimalFieldProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input
          id={id}
          name={name}
          inputMode="decimal"
          size={6}
          placeholder={placeholder}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...invalid}
        />
        <span className="muted small">{children}</span>
      </div>
    </>
  );
}
