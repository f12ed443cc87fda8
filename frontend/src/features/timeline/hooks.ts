import { useEffect, useState, type RefObject } from 'react';

/** The element's content width in CSS pixels, kept current as the window resizes. */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** `value`, once it has stopped changing for `delayMs` (0: at once): wheel zooms fetch once they pause. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (delayMs <= 0) {
      // Next task, not this render: the state update must not happen inside the effect itself.
      const now = setTimeout(() => setSettled(value), 0);
      return () => clearTimeout(now);
    }
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
