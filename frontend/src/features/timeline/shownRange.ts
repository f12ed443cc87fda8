/** Which time range the timeline shows (pure): the selection's `from`/`to`, else the incident's tracks. */
import { epochUsFromIso, type Selection } from '../../shared/selection';
import type { TrackListing } from './api';
import type { TimeRange } from './timeScale';

/** Every aligned capture's span, as the server lists it; null before any capture has times. */
export function listingRange(listing: TrackListing): TimeRange | null {
  const from = listing.time_start ? epochUsFromIso(listing.time_start) : null;
  const to = listing.time_end ? epochUsFromIso(listing.time_end) : null;
  return from !== null && to !== null && to > from ? { fromUs: from, toUs: to } : null;
}

/** A missing end is the incident's; an end at or before the start falls back to the whole incident. */
export function shownRange(selection: Pick<Selection, 'fromUs' | 'toUs'>, listing: TrackListing): TimeRange | null {
  if (selection.fromUs !== null && selection.toUs !== null) return { fromUs: selection.fromUs, toUs: selection.toUs };
  const full = listingRange(listing);
  if (!full) return null;
  const fromUs = selection.fromUs ?? full.fromUs;
  const toUs = selection.toUs ?? full.toUs;
  return toUs > fromUs ? { fromUs, toUs } : full;
}
