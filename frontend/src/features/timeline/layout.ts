/** Sizes shared by the chart and the page: the label column and each kind of track's height. */
import type { TrackInfo } from './api';

export const LABEL_WIDTH = 230;
export const HOST_ROW_HEIGHT = 28;

/** The line under each track's canvas, inside its row (labels are as tall, border included). */
export const TRACK_BORDER = 1;

/** A track's row in both columns, its bottom border included. */
export function rowHeight(info: TrackInfo): number {
  switch (info.type) {
    case 'cpu':
      return 76;
    case 'offcpu':
      return 60;
    case 'events':
      return 46;
    case 'metric':
      return 46;
  }
}

/** What a track's canvas draws in: its row less the border, so canvases and labels stay level. */
export function canvasHeight(info: TrackInfo): number {
  return rowHeight(info) - TRACK_BORDER;
}
