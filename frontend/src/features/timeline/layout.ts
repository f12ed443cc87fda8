/** Sizes shared by the chart and the page: the label column and each kind of track's height. */
import type { TrackInfo } from './api';

export const LABEL_WIDTH = 230;
export const HOST_ROW_HEIGHT = 28;

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
