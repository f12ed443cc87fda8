/**
 * Keyboard shortcuts as data: a view declares its keys once, in a group, and both its key handler
 * (through `shortcutFor`) and the `?` help read that group, so the help lists exactly what the
 * handlers do. Pure, so matching and naming keys are unit-tested.
 */

export interface Shortcut<A extends string = string> {
  /** What the handler does for it; the handler's map is keyed by these. */
  action: A;
  /** `KeyboardEvent.key` values that trigger it. */
  keys: readonly string[];
  /** true: only with Shift held; false: only without. Unset: either, since some layouts need Shift for `+` or `?`. */
  shift?: boolean;
  /** What the help says the keys do. */
  does: string;
}

export interface ShortcutGroup<A extends string = string> {
  /** The help's heading for these keys: the view, or the part of it they belong to. */
  title: string;
  /**
   * Where the help lists the group: the view's own keys first, then those of its parts (a grid, a
   * table, a search field), then those every view has (the share menu). Unset: a part.
   */
  place?: 'view' | 'part' | 'everywhere';
  /** Where the keys work, when not anywhere on the page ("with the grid focused"). */
  where?: string;
  shortcuts: readonly Shortcut<A>[];
}

/** What `shortcutFor` reads of a keyboard event (a DOM or a React one). */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const shiftFits = (s: Shortcut, shift: boolean): boolean => s.shift === undefined || s.shift === shift;

/**
 * The shortcut a key press triggers in `group`, or null. Presses with Ctrl, Alt or Meta are the
 * browser's and the system's; a shortcut that names Shift wins over one that does not care.
 */
export function shortcutFor<A extends string>(group: ShortcutGroup<A>, e: KeyPress): Shortcut<A> | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const candidates = group.shortcuts.filter((s) => s.keys.includes(e.key) && shiftFits(s, e.shiftKey));
  return candidates.find((s) => s.shift !== undefined) ?? candidates[0] ?? null;
}

const KEY_NAMES: Record<string, string> = {
  ' ': 'Space',
  Escape: 'Esc',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  PageUp: 'PgUp',
  PageDown: 'PgDn',
};

/** How the help prints one key: "Esc", "→", "Space", "s". */
export const keyName = (key: string): string => KEY_NAMES[key] ?? key;

/** The keys of a shortcut as the help prints them, each as it is pressed: ["Shift+→", "Shift+←"]. */
export function keyLabels(s: Shortcut): string[] {
  return s.keys.map((k) => (s.shift === true ? `Shift+${keyName(k)}` : keyName(k)));
}

const PLACES = ['view', 'part', 'everywhere'] as const;

/** Groups in the help's order (see `place`); groups of one place keep their order. */
export function helpOrder(groups: readonly ShortcutGroup[]): ShortcutGroup[] {
  const rank = (g: ShortcutGroup) => PLACES.indexOf(g.place ?? 'part');
  return [...groups].sort((a, b) => rank(a) - rank(b));
}

/** Only the shortcuts whose action is available now (a handler that is not null). */
export function availableGroup<A extends string>(group: ShortcutGroup<A>, available: (action: A) => boolean): ShortcutGroup<A> {
  return { ...group, shortcuts: group.shortcuts.filter((s) => available(s.action)) };
}
