/** Escape every character that has a meaning in a JavaScript regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Case-insensitive literal substring matcher; an empty term matches nothing. */
export function literalMatcher(term: string): (text: string) => boolean {
  const trimmed = term.trim();
  if (!trimmed) return () => false;
  const re = new RegExp(escapeRegExp(trimmed), 'i');
  return (text) => re.test(text);
}
