/**
 * Where the sign-in page goes afterwards. `next` comes from the URL, which anyone can write: only a
 * path on this console is followed, never another site (`https://…`, `//evil`, `/\evil`), so a link
 * to the sign-in page cannot bounce a person somewhere else after they type their password.
 */
export function safeNext(raw: string | null | undefined): string {
  if (!raw) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  // Control characters (a tab or newline inside "//") are dropped by URL parsers: refuse them.
  for (const ch of raw) if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) return '/';
  if (raw === '/login' || raw.startsWith('/login?') || raw.startsWith('/login/')) return '/';
  try {
    const resolved = new URL(raw, 'http://console.invalid');
    if (resolved.origin !== 'http://console.invalid' || resolved.pathname.startsWith('//')) return '/';
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return '/';
  }
}

/** The sign-in page, coming back to `location` (path, query and hash) afterwards. */
export function loginHref(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  const next = safeNext(here);
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}
