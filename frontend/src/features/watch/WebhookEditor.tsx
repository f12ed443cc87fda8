import { WEBHOOK_FORMATS, type Webhook, type WebhookRequest } from './api';
import { EditorForm } from './EditorForm';
import { useSaveWebhook } from './queries';
import { useEditorDraft } from './useEditorDraft';
import { draftOfWebhook, EMPTY_WEBHOOK_DRAFT, FORMAT_HINTS, webhookOf, type WebhookDraft } from './webhookForm';

/** A new webhook (`webhook` null) or changes to one; Enter saves, Esc cancels. */
export function WebhookEditor({ webhook, onDone }: { webhook: Webhook | null; onDone: () => void }) {
  const save = useSaveWebhook();
  const { id, draft, set, problem, fieldId, problemId, invalid, submit } = useEditorDraft<WebhookDraft, WebhookRequest>(
    () => (webhook ? draftOfWebhook(webhook) : EMPTY_WEBHOOK_DRAFT),
    webhookOf,
    (body) => save.mutate({ id: webhook?.id ?? null, body }, { onSuccess: onDone }),
    onDone,
  );
  const title = webhook ? `Edit webhook “${webhook.name}”` : 'New webhook';

  return (
    <EditorForm
      title={title}
      onSubmit={submit}
      onCancel={onDone}
      problem={problem?.problem ?? null}
      problemId={problemId}
      saving={save.isPending}
      saveError={save.error}
      saveErrorTitle="Could not save the webhook:"
      submitLabel={webhook ? 'Save' : 'Create webhook'}
    >
      <div className="form__grid">
        <label htmlFor={fieldId('name')}>Name</label>
        <input
          id={fieldId('name')}
          name="name"
          autoFocus
          maxLength={200}
          placeholder="on-call channel"
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          {...invalid('name')}
        />

        <label htmlFor={fieldId('url')}>URL</label>
        <input
          id={fieldId('url')}
          name="url"
          type="url"
          spellCheck={false}
          autoComplete="off"
          placeholder="https://hooks.example.com/…"
          value={draft.url}
          onChange={(e) => set('url', e.target.value)}
          {...invalid('url')}
        />

        <span id={`${id}-format`} className="watch-form__label">
          Format
        </span>
        <div role="radiogroup" aria-labelledby={`${id}-format`} className="watch-formats">
          {WEBHOOK_FORMATS.map((f) => (
            <label key={f} className="watch-check">
              <input type="radio" name={`${id}-format`} value={f} checked={draft.format === f} onChange={() => set('format', f)} />
              <span className="mono">{f}</span> <span className="muted small">{FORMAT_HINTS[f]}</span>
            </label>
          ))}
        </div>

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
            new alerts are sent here
          </span>
        </div>
      </div>
    </EditorForm>
  );
}
