import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import type { Webhook } from './api';
import { deleteWebhookQuestion } from './confirmations';
import { useDeleteWebhook, webhooksQuery } from './queries';
import { WebhookEditor } from './WebhookEditor';
import { FORMAT_HINTS, shownUrl } from './webhookForm';
import { useFormOpener } from './useFormOpener';

type Editing = { kind: 'new' } | { kind: 'edit'; webhook: Webhook };

/** Admins: where new alerts are sent. A URL may hold a secret, so the table shows only its start. */
export function WebhooksSection() {
  const webhooks = useQuery(webhooksQuery());
  const remove = useDeleteWebhook();
  const { editing, open, close } = useFormOpener<Editing>();

  return (
    <section className="stack stack--tight" aria-labelledby="watch-webhooks" data-testid="watch-webhooks">
      <div className="section-head">
        <h2 id="watch-webhooks">Webhooks</h2>
        <span className="muted small">Every new alert is sent to each enabled webhook. Only admins see them: a URL may hold a secret.</span>
        <div className="spacer" />
        <button
          type="button"
          className="btn btn--primary btn--small"
          disabled={editing?.kind === 'new'}
          onClick={(e) => open({ kind: 'new' }, e.currentTarget)}
        >
          New webhook
        </button>
      </div>
      {editing ? (
        <WebhookEditor
          key={editing.kind === 'edit' ? editing.webhook.id : 'new'}
          webhook={editing.kind === 'edit' ? editing.webhook : null}
          onDone={close}
        />
      ) : null}
      {remove.isError ? <ErrorBanner title="Could not delete the webhook:" error={remove.error} /> : null}
      {webhooks.isError ? <ErrorBanner title="Could not load the webhooks:" error={webhooks.error} onRetry={() => void webhooks.refetch()} /> : null}
      {webhooks.isPending ? <p className="muted">Loading the webhooks…</p> : null}
      {webhooks.data && webhooks.data.length === 0 ? (
        <EmptyState title="No webhooks">
          <p>Alerts are listed above either way; a webhook also sends each new one to a chat channel, Alertmanager or your own receiver.</p>
        </EmptyState>
      ) : null}
      {webhooks.data && webhooks.data.length > 0 ? (
        <table className="table watch-webhooks">
          <thead>
            <tr>
              <th>Name</th>
              <th>URL</th>
              <th>Format</th>
              <th>Enabled</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {webhooks.data.map((w) => (
              <tr key={w.id} data-testid="webhook-row" data-webhook-id={w.id} className={w.enabled ? undefined : 'muted'}>
                <td>
                  <strong>{w.name}</strong>
                </td>
                <td className="mono">{shownUrl(w.url)}</td>
                <td>
                  <span className="mono">{w.format}</span> <span className="muted small">{FORMAT_HINTS[w.format]}</span>
                </td>
                <td>{w.enabled ? 'yes' : 'no'}</td>
                <td>
                  <Time iso={w.created_at} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn--small"
                    aria-label={`Edit ${w.name}`}
                    onClick={(e) => open({ kind: 'edit', webhook: w }, e.currentTarget)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn--small watch-delete"
                    aria-label={`Delete ${w.name}`}
                    disabled={remove.isPending}
                    onClick={() => {
                      if (!window.confirm(deleteWebhookQuestion(w))) return;
                      remove.mutate(w.id, {
                        onSuccess: () => {
                          // The form of what was deleted goes with it.
                          if (editing?.kind === 'edit' && editing.webhook.id === w.id) close();
                        },
                      });
                    }}
                  >
                    {remove.isPending && remove.variables === w.id ? 'Deleting…' : 'Delete…'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
