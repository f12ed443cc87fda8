/**
 * A secret the server shows once (a token, a guest link): the value, a Copy button, what to do with
 * it, and Done. Every place that hands out a secret says the same thing the same way.
 */
import { useState, type ReactNode } from 'react';
import { copyText } from '../clipboard';
import './SecretOnce.css';

interface Props {
  /** "Token “ci” created" — the sentence goes on: "Copy … now: it will not be shown again." */
  what: string;
  /** What the secret is called in that sentence: "the secret", "it". */
  noun?: string;
  value: string;
  /** What to do with it: a line under the value. */
  children?: ReactNode;
  onDone: () => void;
  testId: string;
  valueTestId?: string;
}

export function SecretOnce({ what, noun = 'the secret', value, children, onDone, testId, valueTestId }: Props) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="banner banner--info secret-box" role="status" data-testid={testId}>
      <div className="stack stack--tight">
        <strong>
          {what}. Copy {noun} now: it will not be shown again.
        </strong>
        <div className="row">
          <code className="mono secret" data-testid={valueTestId}>
            {value}
          </code>
          <button type="button" className="btn btn--small" onClick={() => void copyText(value).then(setCopied)}>
            Copy
          </button>
          {copied === true ? <span className="small">copied</span> : copied === false ? <span className="small">select and copy by hand</span> : null}
        </div>
        {children ? <p className="small">{children}</p> : null}
      </div>
      <button type="button" className="btn btn--small" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
