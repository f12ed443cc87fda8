/** The questions asked before a signature or a webhook is deleted: each says what goes with it. */
import type { Signature, Webhook } from './api';

export const deleteSignatureQuestion = (s: Pick<Signature, 'name'>): string =>
  `Delete signature “${s.name}” and the alerts it raised? Watch captures are no longer checked for it. This cannot be undone.`;

export const deleteWebhookQuestion = (w: Pick<Webhook, 'name'>): string =>
  `Delete webhook “${w.name}”? New alerts are no longer sent to it, and the alerts' record of what was sent to it goes too. This cannot be undone.`;
