import { useEffect, useRef, useState } from 'react';

/**
 * A text field whose value lives in the URL. Typing goes to local state at once and reaches the URL
 * after a pause, so keystrokes are never lost to a navigation round trip; a change made elsewhere
 * (Back, a reset button) replaces the text.
 */
export function useUrlText(value: string, commit: (text: string) => void, delayMs = 200) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  const [committed, setCommitted] = useState(value);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });

  // Adjusting state to a changed prop, during render (the React-documented pattern).
  if (value !== seen) {
    setSeen(value);
    if (value !== committed) {
      setDraft(value);
      setCommitted(value);
    }
  }

  useEffect(() => {
    if (draft === committed) return;
    const t = window.setTimeout(() => {
      setCommitted(draft);
      commitRef.current(draft);
    }, delayMs);
    return () => window.clearTimeout(t);
  }, [draft, committed, delayMs]);

  /** Set and commit immediately (Esc, a clear button). */
  const setNow = (text: string) => {
    setDraft(text);
    setCommitted(text);
    commitRef.current(text);
  };

  return { draft, setDraft, setNow };
}
