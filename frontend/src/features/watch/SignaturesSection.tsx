import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import type { Signature } from './api';
import { deleteSignatureQuestion } from './confirmations';
import { signaturesQuery, useDeleteSignature } from './queries';
import { SignatureEditor } from './SignatureEditor';
import { formatCooldown, formatThresholds, SOURCE_LABELS } from './signatureForm';
import { useFormOpener } from './useFormOpener';

/** What the form is open for: a new signature, or the one being changed. */
type Editing = { kind: 'new' } | { kind: 'edit'; signature: Signature };

interface Props {
  /** The section's id, which the alerts' empty state links to. */
  id: string;
  /** Responders and admins write signatures; viewers read them. */
  canEdit: boolean;
}

/** The rules watch captures are checked against: a table, and a form to write or change one. */
export function SignaturesSection({ id, canEdit }: Props) {
  const signatures = useQuery(signaturesQuery());
  const remove = useDeleteSignature();
  const { editing, open, close } = useFormOpener<Editing>();
  const editingId = editing?.kind === 'edit' ? editing.signature.id : null;

  return (
    <section id={id} className="stack stack--tight" aria-labelledby={`${id}-title`} data-testid="watch-signatures">
      <div className="section-head">
        <h2 id={`${id}-title`}>Signatures</h2>
        <span className="muted small">Checked on every watch capture: a match raises an alert.</span>
        <div className="spacer" />
        {canEdit ? (
          <button
            type="button"
            className="btn btn--primary btn--small"
            disabled={editing?.kind === 'new'}
            onClick={(e) => open({ kind: 'new' }, e.currentTarget)}
          >
            New signature
          </button>
        ) : (
          <span className="muted small">Read-only: responders and admins write signatures.</span>
        )}
      </div>
      {editing ? (
        <SignatureEditor
          // A new form for each signature, starting from what the server holds.
          key={editing.kind === 'edit' ? editing.signature.id : 'new'}
          signature={editing.kind === 'edit' ? editing.signature : null}
          onDone={close}
        />
      ) : null}
      {remove.isError ? <ErrorBanner title="Could not delete the signature:" error={remove.error} /> : null}
      {signatures.isError ? <ErrorBanner title="Could not load the signatures:" error={signatures.error} onRetry={() => void signatures.refetch()} /> : null}
      {signatures.isPending ? <p className="muted">Loading the signatures…</p> : null}
      {signatures.data && signatures.data.length === 0 ? (
        <EmptyState title="No signatures">
          <p>
            A signature names what must never come back: a frame such as <code>kretprobe_</code> anywhere, over 5% of CPU in{' '}
            <code>native_queued_spin_lock_slowpath</code>, or a detector&apos;s finding such as <code>lock-convoy</code>.
          </p>
          {canEdit ? <p>Write one with New signature.</p> : null}
        </EmptyState>
      ) : null}
      {signatures.data && signatures.data.length > 0 ? (
        <div className="table-scroll">
          <table className="table watch-signatures">
            <thead>
              <tr>
                <th>Name</th>
                <th>Pattern</th>
                <th>Source</th>
                <th>State</th>
                <th>Process</th>
                <th>Thresholds</th>
                <th>Cool-down</th>
                <th>Enabled</th>
                {canEdit ? <th /> : null}
              </tr>
            </thead>
            <tbody>
              {signatures.data.map((s) => (
                <tr
                  key={s.id}
                  data-testid="signature-row"
                  data-signature-id={s.id}
                  className={s.enabled ? undefined : 'muted'}
                  aria-current={s.id === editingId ? 'true' : undefined}
                >
                  <td>
                    <strong>{s.name}</strong>
                    {s.description ? <div className="muted small watch-description">{s.description}</div> : null}
                  </td>
                  <td className="mono watch-pattern">{s.pattern}</td>
                  <td className="nowrap">{SOURCE_LABELS[s.source]}</td>
                  <td className="mono">{s.source === 'off-cpu' ? (s.state ?? <span className="muted">any</span>) : <span className="muted">–</span>}</td>
                  <td className="mono watch-pattern">
                    {s.source === 'finding' ? <span className="muted">–</span> : (s.process ?? <span className="muted">every</span>)}
                  </td>
                  <td className="nowrap">{formatThresholds(s)}</td>
                  <td className="nowrap">{formatCooldown(s.cooldown_s)}</td>
                  <td>{s.enabled ? 'yes' : 'no'}</td>
                  {canEdit ? (
                    <td className="actions">
                      <button
                        type="button"
                        className="btn btn--small"
                        aria-label={`Edit ${s.name}`}
                        onClick={(e) => open({ kind: 'edit', signature: s }, e.currentTarget)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="btn btn--small watch-delete"
                        aria-label={`Delete ${s.name}`}
                        disabled={remove.isPending}
                        onClick={() => {
                          if (!window.confirm(deleteSignatureQuestion(s))) return;
                          remove.mutate(s.id, {
                            onSuccess: () => {
                              // The form of what was deleted goes with it.
                              if (editing?.kind === 'edit' && editing.signature.id === s.id) close();
                            },
                          });
                        }}
                      >
                        {remove.isPending && remove.variables === s.id ? 'Deleting…' : 'Delete…'}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
