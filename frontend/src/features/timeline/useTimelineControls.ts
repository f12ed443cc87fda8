/**
 * The timeline's controller: zooming, panning and brushing write the shown range to the URL (the
 * shared selection's `from`/`to`, which every view reads), and the keyboard drives the same actions
 * (its keys: shortcuts.ts).
 */
import { useCallback } from 'react';
import type { useSearchParams } from 'react-router';
import { currentSearch } from '../../shared/currentSearch';
import { useShortcuts } from '../../shared/hooks/useShortcuts';
import { readSelection, writeSelection } from '../../shared/selection';
import { TIMELINE_SHORTCUTS } from './shortcuts';
import { pan, zoomAround, type TimeRange } from './timeScale';
import type { TimelineInteraction } from './timing';
import { patchTimelineView, type CpuSplit } from './urlState';

export const ZOOM_STEP = 0.5;
export const PAN_STEP = 0.25;

export interface TimelineControlsInput {
  range: TimeRange | null;
  setParams: ReturnType<typeof useSearchParams>[1];
  /** Told first of every range asked for, so its data is fetched before the URL round trip. */
  announce: (next: TimeRange | null, kind: TimelineInteraction, wheel: boolean) => void;
  canAnnotate: boolean;
  toggleAnnotating: () => void;
  cancelAnnotating: () => void;
}

export interface TimelineControls {
  zoomIn: () => void;
  zoomOut: () => void;
  earlier: () => void;
  later: () => void;
  /** The whole incident: `from`/`to` leave the URL. */
  reset: () => void;
  brush: (range: TimeRange) => void;
  /** ctrl+wheel: `factor` around `centerUs`, fetched once the wheel pauses. */
  wheelZoom: (centerUs: number, factor: number) => void;
  /** null: the default tracks. */
  setTracks: (ids: string[] | null) => void;
  setSplit: (split: CpuSplit) => void;
}

export function useTimelineControls({
  range,
  setParams,
  announce,
  canAnnotate,
  toggleAnnotating,
  cancelAnnotating,
}: TimelineControlsInput): TimelineControls {
  /** The shown range is the selection's: written to the URL, where every view reads it. */
  const setRange = useCallback(
    (next: TimeRange | null, kind: TimelineInteraction, push: boolean, wheel = false) => {
      const rounded = next ? { fromUs: Math.round(next.fromUs), toUs: Math.round(next.toUs) } : null;
      announce(rounded, kind, wheel);
      const current = readSelection(currentSearch()).selection;
      const p = writeSelection(new URLSearchParams(currentSearch()), {
        ...current,
        fromUs: rounded?.fromUs ?? null,
        toUs: rounded?.toUs ?? null,
      });
      setParams(p, { replace: !push });
    },
    [setParams, announce],
  );

  const zoom = useCallback(
    (factor: number, centerUs?: number, wheel = false) => {
      if (!range) return;
      setRange(zoomAround(range, centerUs ?? (range.fromUs + range.toUs) / 2, factor), 'zoom', false, wheel);
    },
    [range, setRange],
  );

  // The keys and what they do: shortcuts.ts, also listed by the `?` help.
  useShortcuts(TIMELINE_SHORTCUTS, {
    zoomIn: () => zoom(ZOOM_STEP),
    zoomOut: () => zoom(1 / ZOOM_STEP),
    whole: () => setRange(null, 'zoom', true),
    earlier: () => (range ? setRange(pan(range, -PAN_STEP), 'zoom', false) : false),
    later: () => (range ? setRange(pan(range, PAN_STEP), 'zoom', false) : false),
    annotate: canAnnotate ? toggleAnnotating : null,
    cancel: cancelAnnotating,
  });

  const panBy = (step: number) => {
    if (range) setRange(pan(range, step), 'zoom', false);
  };
  return {
    zoomIn: () => zoom(ZOOM_STEP),
    zoomOut: () => zoom(1 / ZOOM_STEP),
    earlier: () => panBy(-PAN_STEP),
    later: () => panBy(PAN_STEP),
    reset: () => setRange(null, 'zoom', true),
    brush: (r) => setRange(r, 'brush', true),
    wheelZoom: (centerUs, factor) => zoom(factor, centerUs, true),
    setTracks: (ids) => setParams(patchTimelineView(currentSearch(), { tracks: ids }), { replace: true }),
    setSplit: (split) => setParams(patchTimelineView(currentSearch(), { split }), { replace: true }),
  };
}
