import type { BundleRequest, RedactionMode, RedactionPolicy, RedactionPreview } from '../../api/bundle';
import { errorMessage } from '../../api/http';
import { AddRuleForm } from './AddRuleForm';
import { requestKey, type ExportChoices } from './exportForm';
import { isCustomRule, removeCustomRule, ruleOn, setRuleOn } from './policyEdit';
import { RuleRow } from './RuleRow';

/** A preview and the request it was made for (its key tells whether the choices changed since). */
export interface ShownPreview {
  key: string;
  mode: RedactionMode;
  result: RedactionPreview;
}

interface Props {
  choices: ExportChoices;
  /** The request the choices make now; null while they cannot make one. */
  request: BundleRequest | null;
  shown: ShownPreview | null;
  previewing: boolean;
  previewError: Error | null;
  onChoices: (patch: Partial<ExportChoices>) => void;
  onPreview: () => void;
  /** Preview with this policy as custom redaction; rejects with the server's message. */
  onPreviewPolicy: (policy: RedactionPolicy) => Promise<void>;
}

const MODES: { mode: RedactionMode; label: string; hint: string }[] = [
  { mode: 'default', label: 'Default', hint: 'every built-in rule' },
  { mode: 'none', label: 'None', hint: 'nothing replaced' },
  { mode: 'custom', label: 'Custom', hint: 'the rules as edited below' },
];

/** The redaction choice, its preview (each rule, its matches in context) and the edits made from it. */
export function RedactionSection({ choices, request, shown, previewing, previewError, onChoices, onPreview, onPreviewPolicy }: Props) {
  // The policy edits start from: the edited one, or the one the preview of the chosen mode returned.
  const editable = choices.mode === 'custom' && choices.policy ? choices.policy : shown?.mode === choices.mode ? shown.result.policy : null;
  const stale = shown !== null && (request === null || shown.key !== requestKey(request));
  const edit = (policy: RedactionPolicy) => onChoices({ mode: 'custom', policy });

  return (
    <fieldset className="bundle-dialog__section" data-testid="redaction">
      <legend>Redaction</legend>
      <div className="row">
        {MODES.map(({ mode, label, hint }) => {
          const custom = mode === 'custom';
          const base = choices.policy ?? shown?.result.policy ?? null;
          return (
            <label key={mode} className="bundle-dialog__check" title={custom && base === null ? 'Preview first, then untick or add rules' : hint}>
              <input
                type="radio"
                name="redaction-mode"
                value={mode}
                checked={choices.mode === mode}
                disabled={custom && base === null}
                onChange={() => onChoices(custom ? { mode, policy: base } : { mode })}
              />
              {label} <span className="muted small">({hint})</span>
            </label>
          );
        })}
        <div className="spacer" />
        <button type="button" className="btn btn--small" data-testid="preview-redaction" disabled={request === null || previewing} onClick={onPreview}>
          {previewing ? 'Previewing…' : 'Preview redaction'}
        </button>
      </div>
      {choices.mode === 'none' ? (
        <p className="banner banner--error small">Nothing will be replaced: host names, users, addresses and paths leave as they are.</p>
      ) : null}
      {previewError ? <p className="banner banner--error" role="alert">Preview failed: {errorMessage(previewError)}</p> : null}
      {shown === null ? (
        <p className="muted small">Preview to see what each rule replaces, with examples, before anything leaves the console.</p>
      ) : (
        <div className={`stack stack--tight${stale ? ' bundle-preview--stale' : ''}`} data-testid="redaction-preview" data-stale={stale}>
          <p className="muted small">
            {stale ? (
              <strong data-testid="preview-stale">The choices changed since this preview: preview again to see their effect. </strong>
            ) : null}
            Looked at {shown.result.sources.toLocaleString()} texts of the incident (host names, file names, commands, snapshots, thread and
            frame names, events, metric labels).
          </p>
          <ul className="bundle-rules">
            {shown.result.rules.map((rule) => {
              const known = !isCustomRule(rule.id) || (editable?.custom.some((r) => `custom:${r.name}` === rule.id) ?? false);
              return (
                <RuleRow
                  key={rule.id}
                  rule={rule}
                  on={editable ? ruleOn(editable, rule.id) : rule.enabled}
                  editable={editable !== null && known}
                  onToggle={(on) => {
                    if (editable) edit(setRuleOn(editable, rule.id, on));
                  }}
                  onRemove={
                    editable && isCustomRule(rule.id) && known
                      ? () => edit(removeCustomRule(editable, rule.id))
                      : undefined
                  }
                />
              );
            })}
          </ul>
          {editable ? <AddRuleForm policy={editable} onAdd={onPreviewPolicy} /> : null}
        </div>
      )}
    </fieldset>
  );
}
