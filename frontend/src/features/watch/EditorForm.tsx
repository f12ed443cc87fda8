/**
 * The frame both watch editors (signature, webhook) share: a titled form that saves on Enter and
 * cancels on Esc, the problem the form found with its input (named by `problemId`, which the
 * invalid field points at), the server's refusal, and the Save / Cancel row.
 */
import type { ReactNode, SyntheticEvent } from 'react';
import { ErrorBanner } from '../../shared/components/ErrorBanner';

export interface EditorFormProps {
  title: string;
  onSubmit: (e: SyntheticEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  problem: string | null;
  problemId: string;
  saving: boolean;
  saveError: Error | null;
  /** What the refusal's banner says before the server's words, e.g. "Could not save the webhook:". */
  saveErrorTitle: string;
  submitLabel: string;
  children: ReactNode;
}

export function EditorForm(props: EditorFormProps) {
  const { title, onSubmit, onCancel, problem, problemId, saving, saveError, saveErrorTitle, submitLabel, children } = props;
  return (
    <form
      className="card form watch-form"
      aria-label={title}
      noValidate
      onSubmit={onSubmit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3>{title}</h3>
      {children}
      {problem !== null ? (
        <p id={problemId} className="form__problem" role="alert">
          {problem}
        </p>
      ) : null}
      {saveError ? <ErrorBanner title={saveErrorTitle} error={saveError} /> : null}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <span className="muted small">Enter saves, Esc cancels</span>
      </div>
    </form>
  );
}
