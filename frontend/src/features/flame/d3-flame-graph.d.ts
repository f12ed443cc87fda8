/** The part of d3-flame-graph 5's API that Stallscope uses (the package ships no types). */
declare module 'd3-flame-graph' {
  import type { HierarchyRectangularNode } from 'd3-hierarchy';
  import type { Selection } from 'd3-selection';

  /** A laid-out frame; the library writes `fade`/`hide` onto `data` and `highlight` onto the frame. */
  export interface FlameFrame<T> extends HierarchyRectangularNode<T> {
    id: number;
    highlight?: boolean;
    originalValue?: number;
  }

  export interface FlameTooltip<T> {
    (svg: Selection<SVGSVGElement, unknown, null, undefined>): void;
    show(event: MouseEvent, d: FlameFrame<T>): unknown;
    hide(): unknown;
    destroy?(): void;
  }

  export interface FlameGraph<T> {
    (selection: Selection<HTMLDivElement, T, null, undefined>): void;
    width(w: number): this;
    width(): number;
    cellHeight(h: number): this;
    minFrameSize(px: number): this;
    transitionDuration(ms: number): this;
    sort(s: boolean | ((a: FlameFrame<T>, b: FlameFrame<T>) => number)): this;
    inverted(b: boolean): this;
    resetHeightOnZoom(b: boolean): this;
    selfValue(b: boolean): this;
    tooltip(t: FlameTooltip<T>): this;
    setColorMapper(fn: (d: FlameFrame<T>, originalColor: string) => string): this;
    setSearchMatch(fn: (d: FlameFrame<T>, term: string, ignoreCase?: boolean) => boolean): this;
    setSearchHandler(fn: (results: FlameFrame<T>[], sum: number, total: number) => void): this;
    setDetailsHandler(fn: (text: string | null) => void): this;
    onClick(fn: (d: FlameFrame<T>) => void): this;
    search(term: string): void;
    clear(): void;
    zoomTo(d: FlameFrame<T>): void;
    resetZoom(): void;
    update(data?: T): this;
    destroy(): this;
  }

  export default function flamegraph<T>(): FlameGraph<T>;
}
