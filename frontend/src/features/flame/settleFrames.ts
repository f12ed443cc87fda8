import { select } from 'd3';

/**
 * d3-flame-graph grows new frames from zero width over a default 250 ms transition, even with
 * `transitionDuration(0)`; the widths it is heading for are already on each frame's group. Set them
 * at once, so what is measured as drawn (and what a screenshot catches) is the final picture.
 */
export function settleFrameWidths(el: HTMLElement): void {
  select(el)
    .selectAll<SVGGElement, unknown>('g.frame')
    .each(function () {
      select(this).select('rect').interrupt().attr('width', this.getAttribute('width'));
    });
}
