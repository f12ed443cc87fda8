/** The webhook form, read into what `POST`/`PUT /api/webhooks` take, and back for editing. Pure. */
import type { Webhook, WebhookFormat, WebhookRequest } from './api';
import type { FormProblem } from './signatureForm';

export interface WebhookDraft {
  name: string;
  url: string;
  format: WebhookFormat;
  enabled: boolean;
}

export const EMPTY_WEBHOOK_DRAFT: WebhookDraft = { name: '', url: '', format: 'json', enabled: true };

/** Each format in a line, for the form's choice and the table. */
export const FORMAT_HINTS: Record<WebhookFormat, string> = {
  json: "Stallscope's own JSON",
  alertmanager: "Alertmanager's POST /api/v2/alerts",
  slack: 'Slack incoming webhook',
};

export const draftOfWebhook = (w: Webhook): WebhookDraft => ({ name: w.name, url: w.url, format: w.format, enabled: w.enabled });

/** The webhook to send, or the first problem with the form. */
export function webhookOf(draft: WebhookDraft): { body: WebhookRequest } | FormProblem<keyof WebhookDraft> {
  const name = draft.name.trim();
  if (name === '') return { problem: 'Name: required', field: 'name' };
  if (name.length > 200) return { problem: 'Name: at most 200 characters', field: 'name' };
  const url = draft.url.trim();
  if (url === '') return { problem: 'URL: required', field: 'url' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `URL: “${url}” is not a whole address (https://…)`, field: 'url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: 'URL: an http:// or https:// address', field: 'url' };
  return { body: { name, url, format: draft.format, enabled: draft.enabled } };
}

/**
 * The URL for the table with its secret parts hidden (a Slack webhook's path is its secret, and a
 * URL may carry credentials or a token in its query): the origin and the path's first part.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const [first = ''] = parsed.pathname.split('/').filter(Boolean);
  const more = parsed.pathname.replace(/\/+$/, '') !== (first ? `/${first}` : '') || parsed.search !== '';
  return `${parsed.origin}${first ? `/${first}` : ''}${more ? '/…' : ''}`;
}
