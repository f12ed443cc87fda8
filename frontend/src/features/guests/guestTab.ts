/**
 * Whether this browser tab was opened through a guest link. When the guest session ends (the link
 * revoked or expired), the server cannot say the session was a guest's (revoking deletes it), and a
 * reload asks "who am I" afresh: this mark sends the tab to the "guest view ended" page instead of
 * a sign-in form its holder has no account for. Per tab (sessionStorage); no secret is kept.
 */
const KEY = 'stallscope.guest-tab';

export function markGuestTab(): void {
  try {
    window.sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage refused (a private window): a reload then shows the sign-in page, nothing worse.
  }
}

export function forgetGuestTab(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
}

export function wasGuestTab(): boolean {
  try {
    return window.sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}
