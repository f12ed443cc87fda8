import type { PreviewRule } from '../../api/bundle';

interface Props {
  rule: PreviewRule;
  /** Whether the rule is in the policy as edited (the preview's `enabled` is as previewed). */
  on: boolean;
  editable: boolean;
  onToggle: (on: boolean) => void;
  onRemove?: (() => void) | undefined;
}

const plural = (n: number, one: string, many: string): string => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** One rule of the preview: its switch, how often it matched, and the first matches in context. */
export function RuleRow({ rule, on, editable, onToggle, onRemove }: Props) {
  return (
    <li className="bundle-rule" data-testid="redaction-rule" data-rule-id={rule.id} data-enabled={rule.enabled}>
      <div className="row">
        <label className="bundle-dialog__check">
          <input type="checkbox" checked={on} disabled={!editable} data-testid="rule-toggle" onChange={(e) => onToggle(e.target.checked)} />
          <strong>{rule.label}</strong>
        </label>
        <span className={rule.enabled ? 'small' : 'muted small'} data-testid="rule-matches">
          {rule.enabled ? plural(rule.matches, 'match', 'matches') : 'off'}
        </span>
        {onRemove ? (
          <button type="button" className="btn btn--small btn--ghost" onClick={onRemove}>
            Remove
          </button>
        ) : null}
      </div>
      {rule.examples.length > 0 ? (
        <ul className="bundle-rule__examples">
          {rule.examples.map((e, i) => (
            <li key={i} data-testid="rule-example">
              <span className="muted">{e.source}:</span>{' '}
              <code className="bundle-rule__context">
                {e.before}
                <mark>{e.match}</mark>
                {e.after}
              </code>{' '}
              → <code data-testid="rule-replacement">{e.replacement}</code>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
