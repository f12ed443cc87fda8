/**
 * Which captures a view reads when the selection names an incident but no captures: the parsed
 * ones that hold the view's kind of data, on the selected hosts. The URL keeps "all captures", so
 * a capture uploaded later joins the view.
 */
import { useQuery } from '@tanstack/react-query';
import type { Capture } from '../../api/types';
import type { Selection } from '../../shared/selection';
import { capturesQuery } from './queries';

export type CaptureContent = 'samples' | 'off-cpu' | 'sched' | 'any';

const PARSED: readonly string[] = ['ready', 'partial'];

const holds = (c: Capture, content: CaptureContent): boolean => {
  const events = (kind: string) => c.record_counts[`events.${kind}`] ?? 0;
  switch (content) {
    case 'samples':
      return c.sample_count > 0;
    case 'off-cpu':
      return events('off-cpu') > 0;
    case 'sched':
      return events('off-cpu') > 0 || events('on-cpu') > 0 || (c.record_counts.metric_series ?? 0) > 0;
    case 'any':
      return true;
  }
};

/** Pure: the ids a selection stands for, given the incident's captures. */
export function selectedCaptureIds(all: Capture[], s: Selection, content: CaptureContent): number[] {
  if (s.captures.length > 0) return s.captures;
  return all
    .filter((c) => PARSED.includes(c.status) && holds(c, content))
    .filter((c) => s.hosts.length === 0 || s.hosts.includes(c.host ?? ''))
    .map((c) => c.id)
    .sort((a, b) => a - b);
}

/** The selection's capture ids, loading the incident's captures only when the URL names none. */
export function useSelectionCaptures(s: Selection, content: CaptureContent) {
  const needed = s.captures.length === 0 && s.incident !== null;
  const all = useQuery({ ...capturesQuery(s.incident ?? 0), enabled: needed });
  if (!needed) return { ids: s.captures, pending: false, error: null };
  return {
    ids: all.data ? selectedCaptureIds(all.data, s, content) : [],
    pending: all.isPending,
    error: all.error,
  };
}
