/**
 * Requests a bundle could not answer. Kept on `window.__stallscopeBundleMisses` (an end-to-end test
 * asserts it stays empty: every view drew from embedded data) and told to the layout's notice.
 */

declare global {
  interface Window {
    __stallscopeBundleMisses?: string[];
  }
}

type Listener = (misses: readonly string[]) => void;
const listeners = new Set<Listener>();

function missList(): string[] {
  window.__stallscopeBundleMisses ??= [];
  return window.__stallscopeBundleMisses;
}

/** Record a key once; listeners hear the whole list. */
export function recordMiss(key: string): void {
  const misses = missList();
  if (misses.includes(key)) return;
  misses.push(key);
  for (const listener of listeners) listener([...misses]);
}

export function currentMisses(): readonly string[] {
  return [...missList()];
}

/** Listen for new misses; returns the unsubscribe. */
export function onMiss(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
