/**
 * Shortcut groups wired to the page: `useShortcuts` handles a group's keys on the window and lists
 * them in the `?` help while its component is mounted; `useShortcutHelp` only lists them, for keys an
 * element handles itself (a focused grid or table row) through `shortcutFor`.
 */
import { createContext, useContext, useEffect, useMemo, useRef, type RefObject } from 'react';
import { availableGroup, shortcutFor, type ShortcutGroup } from '../shortcuts';
import { isTyping } from './useHotkeys';

/** The groups of the components on the page now, for the help; one per layout. */
export class ShortcutRegistry {
  /** One entry per mounted user: two lists of findings on a page add the same group twice. */
  private mounted: ShortcutGroup[] = [];
  private shown: readonly ShortcutGroup[] = [];
  private listeners = new Set<() => void>();

  /** List a group; returns its removal. */
  add(group: ShortcutGroup): () => void {
    this.mounted = [...this.mounted, group];
    this.emit();
    return () => {
      const at = this.mounted.indexOf(group);
      if (at >= 0) this.mounted = [...this.mounted.slice(0, at), ...this.mounted.slice(at + 1)];
      this.emit();
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The groups to list, each once, in the order they were first added. */
  readonly snapshot = (): readonly ShortcutGroup[] => this.shown;

  private emit(): void {
    this.shown = [...new Set(this.mounted)];
    for (const listener of this.listeners) listener();
  }
}

export const ShortcutRegistryContext = createContext<ShortcutRegistry | null>(null);

/** Opens the `?` help (components/ShortcutHelp.tsx) from a button that offers it. */
export const OpenHelpContext = createContext<(() => void) | null>(null);

/** The help's opener; null outside a layout that has the help. */
export const useOpenShortcutHelp = (): (() => void) | null => useContext(OpenHelpContext);

/** List `group` in the `?` help while this component is mounted (nothing outside a layout that has the help). */
export function useShortcutHelp(group: ShortcutGroup | null): void {
  const registry = useContext(ShortcutRegistryContext);
  useEffect(() => {
    if (!registry || !group || group.shortcuts.length === 0) return;
    return registry.add(group);
  }, [registry, group]);
}

/** A shortcut's handler: return false when the key did nothing, so its default is kept; anything else is ignored. */
export type ShortcutHandler = (e: KeyboardEvent) => unknown;

/**
 * Handle `group`'s keys anywhere on the page but in text fields, and list them in the help. A null
 * handler marks an action not available now (not allowed, nothing to act on): neither handled nor
 * listed. Handlers may change every render; the listener does not.
 */
export function useShortcuts<A extends string>(group: ShortcutGroup<A>, handlers: Record<A, ShortcutHandler | null>): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const available = group.shortcuts
    .filter((s) => handlers[s.action] !== null)
    .map((s) => s.action)
    .join(' ');
  const listed = useMemo(() => availableGroup(group, (action) => available.split(' ').includes(action)), [group, available]);
  useShortcutHelp(listed);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return;
      const hit = shortcutFor(group, e);
      const handler = hit ? latest.current[hit.action] : null;
      if (handler && handler(e) !== false) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [group]);
}

/** `group`'s one key (`/` by custom) puts the cursor in this search field, its text selected. */
export function useSlashFocus(ref: RefObject<HTMLInputElement | null>, group: ShortcutGroup<'focus'>): void {
  useShortcuts(group, {
    focus: () => {
      if (!ref.current) return false;
      ref.current.focus();
      ref.current.select();
    },
  });
}
