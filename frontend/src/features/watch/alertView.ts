/** What an alert's row shows, from the alert the API answers. Pure. */
import type { Delivery } from './api';

/**
 * The console path (with its query and hash) of an absolute evidence URL, so the link stays inside
 * the running app whatever origin the server was configured with (the URL is built for webhooks,
 * from the server's own idea of its address). Null when it is not a URL at all.
 */
export function evidencePath(url: string): string | null {
  let parsed: URL;
  try {
    // A path alone (a server without a configured address) is read against a placeholder origin.
    parsed = new URL(url, 'http://console.invalid');
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** A delivery's status in words, and what the hover tells. */
export function deliveryWords(d: Delivery): { status: string; detail: string } {
  const tries = d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`;
  switch (d.status) {
    case 'sent':
      return { status: 'sent', detail: d.sent_at ? `sent ${d.sent_at} (UTC)` : 'sent' };
    case 'pending':
      return { status: 'pending', detail: d.attempts > 0 ? `${tries} so far; trying again` : 'not sent yet' };
    case 'failed':
      return { status: 'failed', detail: d.last_error ? `${d.last_error} (${tries})` : `failed after ${tries}` };
  }
}

