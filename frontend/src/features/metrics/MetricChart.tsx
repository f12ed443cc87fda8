/**
 * The metric line chart: the only component here that touches d3. Avg as a line, min–max as a band,
 * UTC time axis, the unit on the y axis. Hover reports the nearest point of each series to the page,
 * which renders the readout as text.
 */
import * as d3 from 'd3';
import { useEffect, useRef } from 'react';
import { nearestPoint, type ChartPoint } from './seriesList';

export interface ChartSeries {
  id: number;
  title: string;
  color: string;
  points: ChartPoint[];
}

export interface Readout {
  t: number;
  values: { id: number; title: string; color: string; point: ChartPoint }[];
}

interface Props {
  series: ChartSeries[];
  unit: string;
  width: number;
  height?: number;
  onHover: (r: Readout | null) => void;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 64 };

/** Milliseconds once the visible span is short enough for whole seconds to repeat; dates past a day. */
function utcTickFormat(spanMs: number): (d: Date) => string {
  if (spanMs < 20_000) return d3.utcFormat('%H:%M:%S.%L');
  if (spanMs < 2 * 86_400_000) return d3.utcFormat('%H:%M:%S');
  return d3.utcFormat('%m-%d %H:%M');
}

export function MetricChart({ series, unit, width, height = 320, onHover }: Props) {
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
    const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
    const innerH = height - MARGIN.top - MARGIN.bottom;
    const all = series.flatMap((s) => s.points);
    if (all.length === 0) return;
    const [t0 = 0, t1 = 1] = d3.extent(all, (p) => p.t);
    const lo = d3.min(all, (p) => p.min) ?? 0;
    const hi = d3.max(all, (p) => p.max) ?? 1;
    const x = d3.scaleUtc().domain([t0, t1 === t0 ? t0 + 1000 : t1]).range([0, innerW]);
    const y = d3
      .scaleLinear()
      .domain([Math.min(0, lo), hi === lo ? hi + 1 : hi])
      .nice()
      .range([innerH, 0]);
    const utcTick = utcTickFormat(x.domain().reduce((span, d, i) => (i === 0 ? -d.getTime() : span + d.getTime()), 0));
    const g = svg.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    g.append('g')
      .attr('class', 'axis axis--x')
      .attr('transform', `translate(0,${innerH})`)
      .call(
        d3
          .axisBottom<Date>(x)
          .ticks(Math.max(2, Math.floor(innerW / 110)))
          .tickFormat((d) => utcTick(d)),
      );
    g.append('g').attr('class', 'axis axis--y').call(d3.axisLeft(y).ticks(6));
    g.append('text')
      .attr('class', 'axis-label')
      .attr('transform', 'rotate(-90)')
      .attr('x', -innerH / 2)
      .attr('y', -MARGIN.left + 14)
      .attr('text-anchor', 'middle')
      .text(unit || 'value');
    g.append('text')
      .attr('class', 'axis-label')
      .attr('x', innerW)
      .attr('y', innerH + MARGIN.bottom - 2)
      .attr('text-anchor', 'end')
      .text('UTC');

    const area = d3
      .area<ChartPoint>()
      .x((p) => x(p.t))
      .y0((p) => y(p.min))
      .y1((p) => y(p.max));
    const line = d3
      .line<ChartPoint>()
      .x((p) => x(p.t))
      .y((p) => y(p.avg));
    for (const s of series) {
      g.append('path').datum(s.points).attr('class', 'band').attr('fill', s.color).attr('fill-opacity', 0.15).attr('d', area);
      g.append('path').datum(s.points).attr('class', 'line').attr('fill', 'none').attr('stroke', s.color).attr('stroke-width', 1.5).attr('d', line);
      if (s.points.length < 40) {
        g.append('g')
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
        const t = x.invert(mx).getTime();
        const values = series.flatMap((s) => {
          const point = nearestPoint(s.points, t);
          return point ? [{ id: s.id, title: s.title, color: s.color, point }] : [];
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
  }, [series, unit, width, height]);

  return <svg ref={ref} className="metric-chart" width={width} height={height} role="img" aria-label={`Metric chart (${unit || 'value'})`} />;
}
