/**
 * The timeline's annotation state: whether a click on the chart pins a note, the time a new note is
 * being written for, and the note opened from its pin. Every action is stable across renders, so
 * the keyboard controller can hold them without re-subscribing.
 */
import { useCallback, useState } from 'react';
import type { Annotation } from './api';

export interface AnnotationState {
  annotating: boolean;
  /** Where the note being written goes, in epoch µs; null when none is. */
  newAt: number | null;
  selectedNote: Annotation | null;
  toggleAnnotating: () => void;
  pickTime: (us: number) => void;
  /** The new note was pinned or abandoned: back to browsing. */
  finishNew: () => void;
  selectNote: (annotation: Annotation) => void;
  closeNote: () => void;
  /** Escape: out of annotating, the form and the open note. */
  cancel: () => void;
}

export function useAnnotationState(): AnnotationState {
  const [annotating, setAnnotating] = useState(false);
  const [newAt, setNewAt] = useState<number | null>(null);
  const [selectedNote, setSelectedNote] = useState<Annotation | null>(null);
  const toggleAnnotating = useCallback(() => setAnnotating((on) => !on), []);
  const finishNew = useCallback(() => {
    setNewAt(null);
    setAnnotating(false);
  }, []);
  const closeNote = useCallback(() => setSelectedNote(null), []);
  const cancel = useCallback(() => {
    setAnnotating(false);
    setNewAt(null);
    setSelectedNote(null);
  }, []);
  return { annotating, newAt, selectedNote, toggleAnnotating, pickTime: setNewAt, finishNew, selectNote: setSelectedNote, closeNote, cancel };
}
