/** The words of the breadcrumbs: an incident by its title, captures by their file names. Pure. */

/** How many characters of a title or file name a crumb shows before an ellipsis (the full text on hover). */
export const CRUMB_CHARS = 48;

/** `text` cut to `max` characters with an ellipsis. */
export function clip(text: string, max = CRUMB_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "#4 Checkout p99 at 2 s", or "#4" while the title is not known. */
export function incidentLabel(id: number, title: string | undefined): string {
  const t = title?.trim();
  return t ? `#${id} ${t}` : `#${id}`;
}

export interface NamedCapture {
  id: number;
  filename: string;
}

/**
 * The captures a view shows, by file name: "sched.txt", "a.txt and b.txt", "3 captures"; "#12" for
 * one not (yet) known. Empty for none.
 */
export function capturesLabel(ids: readonly number[], known: readonly NamedCapture[] | undefined): string {
  const name = (id: number) => known?.find((c) => c.id === id)?.filename || `#${id}`;
  if (ids.length === 0) return '';
  if (ids.length === 1) return name(ids[0] ?? 0);
  if (ids.length === 2) return `${name(ids[0] ?? 0)} and ${name(ids[1] ?? 0)}`;
  return `${ids.length} captures`;
}
