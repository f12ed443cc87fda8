import { useEffect, useRef, useState } from 'react';

/**
 * What an inline form is open for, and the button that opened it, which gets the focus back when the
 * form closes (saved or cancelled), so a keyboard user carries on from where they were.
 */
export function useFormOpener<T>(): { editing: T | null; open: (what: T, opener: HTMLElement) => void; close: () => void } {
  const [editing, setEditing] = useState<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (editing === null) opener.current?.focus();
  }, [editing]);
  return {
    editing,
    open: (what, from) => {
      opener.current = from;
      setEditing(what);
    },
    close: () => setEditing(null),
  };
}
