/** One chart of one unit with its legend (what each line is) and the hover readout as text. */
import { useState } from 'react';
import { formatCount } from '../../shared/units';
import { eventTimeUtc } from '../events/eventFormat';
import { formatMetricValue, formatOffset } from './axisFormat';
import { drawnText, hasPercentiles, PERCENTILE_STROKES, type ChartPoint, type ChartSeries, type UnitChart, type XMode } from './chartData';
import { MetricChart, type Readout } from './MetricChart';

interface Props {
  chart: UnitChart;
  xMode: XMode;
  width: number;
}

export function UnitChartBlock({ chart, xMode, width }: Props) {
  const [readout, setReadout] = useState<Readout | null>(null);
  const withPercentiles = chart.series.some(hasPercentiles);
  const spanMs = Math.max(0, ...chart.series.flatMap((s) => s.points.map((p) => p.t))) - Math.min(0, ...chart.series.flatMap((s) => s.points.map((p) => p.t)));
  return (
    <section className="unit-chart" aria-label={`Series in ${chart.unit || 'no unit'}`}>
      <MetricChart series={chart.series} unit={chart.unit} xMode={xMode} width={width} onHover={setReadout} />
      <ul className="legend metric-legend small" data-testid="metric-legend">
        {chart.series.map((s) => (
          <li key={s.id} className="legend__item">
            <span className="swatch" style={{ background: s.color }} aria-hidden="true" /> <span className="mono legend__title">{s.title}</span>{' '}
            <span className="muted legend__drawn" title={s.reason ? `${s.kind}: ${s.reason}` : s.kind}>
              {drawnText(s)}
            </span>
          </li>
        ))}
        {withPercentiles ? <PercentileKey /> : null}
      </ul>
      <div className="readout small" aria-live="polite" data-testid="metric-readout">
        {readout ? (
          <>
            <div className="mono">{xMode === 'time' ? `${eventTimeUtc(new Date(readout.t).toISOString())} UTC` : `${formatOffset(readout.t, spanMs)} since capture start`}</div>
            {readout.values.map((v) => (
              <div key={v.series.id} className="readout__row">
                <span className="swatch" style={{ background: v.series.color }} aria-hidden="true" /> <span className="mono">{v.series.title}</span>{' '}
                <ReadoutValue series={v.series} point={v.point} />
              </div>
            ))}
          </>
        ) : (
          <span className="muted">Hover the chart for exact values.</span>
        )}
      </div>
    </section>
  );
}

function ReadoutValue({ series, point }: { series: ChartSeries; point: ChartPoint }) {
  const f = (v: number) => formatMetricValue(v, series.unit);
  if (point.p50 !== null && point.p90 !== null && point.p99 !== null) {
    return (
      <>
        <strong>p50 {f(point.p50)}</strong>, p90 {f(point.p90)}, p99 {f(point.p99)}, max {f(point.max)}
        <span className="muted"> ({formatCount(point.count)} points)</span>
      </>
    );
  }
  return (
    <>
      <strong>{f(point.avg)}</strong>
      {point.count > 1 ? (
        <span className="muted">
          {' '}
          (min {f(point.min)}, max {f(point.max)}, {formatCount(point.count)} {series.drawn === 'rate' ? 'steps' : 'points'})
        </span>
      ) : null}
    </>
  );
}

/** The strokes of the percentile lines, drawn as the chart draws them. */
function PercentileKey() {
  return (
    <li className="legend__item legend__key muted">
      {(['p50', 'p90', 'p99', 'max'] as const).map((stat) => {
        const s = PERCENTILE_STROKES[stat];
        return (
          <span key={stat} className="legend__stroke">
            <svg width="22" height="8" aria-hidden="true">
              <line x1="1" x2="21" y1="4" y2="4" stroke="currentColor" strokeWidth={s.width} strokeOpacity={s.opacity} strokeDasharray={s.dash || undefined} />
            </svg>
            {stat}
          </span>
        );
      })}
      <span>shaded: p50 to p99</span>
    </li>
  );
}
