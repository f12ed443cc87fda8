/**
 * One metric chart (one unit): the only component here that touches d3. Gauges and rates as their
 * average with the min–max band; latencies as p50 (solid), p90 (dashed), p99 (thin) and max (dotted)
 * over a p50–p99 band. The x axis is UTC, or the offset from each capture's start when aligned. Hover
 * reports the nearest point of each series to the page, which renders the readout as text.
 */
import * as d3 from 'd3';
import { useEffect, useRef } from 'react';
import { axisTickFormat, formatOffset, offsetTicks, yAxisMargin, yTickCount } from './axisFormat';
import { hasPercentiles, nearestPoint, PERCENTILE_STROKES, yExtent, type ChartPoint, type ChartSeries, type XMode } from './chartData';

export interface Readout {
  t: number;
  values: { series: ChartSeries; point: ChartPoint }[];
}

interface Props {
  series: ChartSeries[];
  unit: string;
  xMode: XMode;
  width: number;
  height?: number;
  onHover: (r: Readout | null) => void;
}

const MARGIN = { top: 12, right: 20, bottom: 30 };

/** Milliseconds once the visible span is short enough for whole seconds to repeat; dates past a day. */
function utcTickFormat(spanMs: number): (d: Date) => string {
  if (spanMs < 20_000) return d3.utcFormat('%H:%M:%S.%L');
  if (spanMs < 2 * 86_400_000) return d3.utcFormat('%H:%M:%S');
  return d3.utcFormat('%m-%d %H:%M');
}

export function MetricChart({ series, unit, xMode, width, height = 300, onHover }: Props) {
  const ref = useRef<SVGSVGElement>(null);
  const hoverRef = useRef(onHover);
  useEffect(() => {
    hoverRef.current = onHover;
  });

  useEffect(() => {
    const svgEl = ref.current;
    if (!svgEl || width <= 0) return;
    const svg = d3.select(svgEl);
    svg.selectAll('*').remove();
    const innerH = height - MARGIN.top - MARGIN.bottom;
    const all = series.flatMap((s) => s.points);
    if (all.length === 0) return;

    const [lo, hi] = yExtent(series);
    const y = d3.scaleLinear().domain([lo, hi]).nice(yTickCount(innerH)).range([innerH, 0]);
    const yTicks = y.ticks(yTickCount(innerH));
    const yFormat = axisTickFormat(yTicks, unit);
    const left = yAxisMargin(yTicks.map(yFormat));
    const innerW = Math.max(10, width - left - MARGIN.right);

    const [t0 = 0, t1 = 1] = d3.extent(all, (p) => p.t);
    const tEnd = t1 === t0 ? t0 + 1000 : t1;
    const xTicksWanted = Math.max(2, Math.floor(innerW / 110));
    const g = svg.append('g').attr('transform', `translate(${left},${MARGIN.top})`);
    let x: (t: number) => number;
    let invert: (px: number) => number;
    if (xMode === 'time') {
      const scale = d3.scaleUtc().domain([t0, tEnd]).range([0, innerW]);
      const fmt = utcTickFormat(tEnd - t0);
      x = (t) => scale(t);
      invert = (px) => scale.invert(px).getTime();
      g.append('g')
        .attr('class', 'axis axis--x')
        .attr('transform', `translate(0,${innerH})`)
        .call(
          d3
            .axisBottom<Date>(scale)
            .ticks(xTicksWanted)
            .tickFormat((d) => fmt(d)),
        );
    } else {
      const scale = d3.scaleLinear().domain([Math.min(0, t0), tEnd]).range([0, innerW]);
      x = (t) => scale(t);
      invert = (px) => scale.invert(px);
      const span = tEnd - Math.min(0, t0);
      g.append('g')
        .attr('class', 'axis axis--x')
        .attr('transform', `translate(0,${innerH})`)
        .call(
          d3
            .axisBottom<number>(scale)
            .tickValues(offsetTicks(span, xTicksWanted))
            .tickFormat((d) => formatOffset(d, span)),
        );
    }
    g.append('g')
      .attr('class', 'axis axis--y')
      .call(
        d3
          .axisLeft<number>(y)
          .tickValues(yTicks)
          .tickFormat((d) => yFormat(d)),
      );
    g.append('g')
      .attr('class', 'grid')
      .selectAll('line')
      .data(yTicks)
      .join('line')
      .attr('x1', 0)
      .attr('x2', innerW)
      .attr('y1', (d) => y(d))
      .attr('y2', (d) => y(d));
    g.append('text')
      .attr('class', 'axis-label')
      .attr('transform', 'rotate(-90)')
      .attr('x', -innerH / 2)
      .attr('y', -left + 12)
      .attr('text-anchor', 'middle')
      .text(unit || 'value');
    g.append('text')
      .attr('class', 'axis-label')
      .attr('x', innerW)
      .attr('y', innerH + MARGIN.bottom - 2)
      .attr('text-anchor', 'end')
      .text(xMode === 'time' ? 'UTC' : 'since capture start');

    const plot = g.append('g').attr('class', 'plot');
    for (const s of series) {
      const group = plot.append('g').attr('class', 'series').attr('data-series', s.id);
      if (hasPercentiles(s)) {
        const pts = s.points.filter((p) => p.p50 !== null && p.p99 !== null);
        group
          .append('path')
          .datum(pts)
          .attr('class', 'band band--p50-p99')
          .attr('fill', s.color)
          .attr('fill-opacity', 0.16)
          .attr(
            'd',
            d3
              .area<ChartPoint>()
              .x((p) => x(p.t))
              .y0((p) => y(p.p50 ?? 0))
              .y1((p) => y(p.p99 ?? 0)),
          );
        for (const stat of ['max', 'p99', 'p90', 'p50'] as const) {
          const stroke = PERCENTILE_STROKES[stat];
          group
            .append('path')
            .datum(pts)
            .attr('class', `line line--${stat}`)
            .attr('fill', 'none')
            .attr('stroke', s.color)
            .attr('stroke-width', stroke.width)
            .attr('stroke-opacity', stroke.opacity)
            .attr('stroke-dasharray', stroke.dash || null)
            .attr(
              'd',
              d3
                .line<ChartPoint>()
                .x((p) => x(p.t))
                .y((p) => y(stat === 'max' ? p.max : (p[stat] ?? 0))),
            );
        }
        continue;
      }
      group
        .append('path')
        .datum(s.points)
        .attr('class', 'band')
        .attr('fill', s.color)
        .attr('fill-opacity', 0.15)
        .attr(
          'd',
          d3
            .area<ChartPoint>()
            .x((p) => x(p.t))
            .y0((p) => y(p.min))
            .y1((p) => y(p.max)),
        );
      group
        .append('path')
        .datum(s.points)
        .attr('class', 'line line--avg')
        .attr('fill', 'none')
        .attr('stroke', s.color)
        .attr('stroke-width', 1.5)
        .attr(
          'd',
          d3
            .line<ChartPoint>()
            .x((p) => x(p.t))
            .y((p) => y(p.avg)),
        );
      if (s.points.length < 40) {
        group
          .append('g')
          .selectAll('circle')
          .data(s.points)
          .join('circle')
          .attr('cx', (p) => x(p.t))
          .attr('cy', (p) => y(p.avg))
          .attr('r', 2.5)
          .attr('fill', s.color);
      }
    }

    const rule = g.append('line').attr('class', 'hover-rule').attr('y1', 0).attr('y2', innerH).style('display', 'none');
    g.append('rect')
      .attr('class', 'hover-target')
      .attr('width', innerW)
      .attr('height', innerH)
      .attr('fill', 'transparent')
      .on('mousemove', (ev: MouseEvent) => {
        const [mx] = d3.pointer(ev);
        const t = invert(mx);
        const values = series.flatMap((s) => {
          const point = nearestPoint(s.points, t);
          return point ? [{ series: s, point }] : [];
        });
        const at = values[0]?.point.t ?? t;
        rule.style('display', null).attr('x1', x(at)).attr('x2', x(at));
        hoverRef.current({ t: at, values });
      })
      .on('mouseleave', () => {
        rule.style('display', 'none');
        hoverRef.current(null);
      });

    return () => {
      svg.selectAll('*').remove();
    };
  }, [series, unit, xMode, width, height]);

  return <svg ref={ref} className="metric-chart" width={width} height={height} role="img" aria-label={`Metric chart (${unit || 'value'})`} />;
}
