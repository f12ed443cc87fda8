/** The figures of each drawn series over the range drawn: what a finding quotes, read without hovering. */
import { formatCount } from '../../shared/units';
import { formatMetricValue } from './axisFormat';
import type { ChartSeries } from './chartData';
import { seriesSummary } from './seriesSummary';

export function MetricSummaryTable({ series }: { series: readonly ChartSeries[] }) {
  return (
    <table className="table metric-summary small" data-testid="metric-summary">
      <caption className="muted">Over the range drawn: the mean is of every point (rates: of every step), not of the buckets.</caption>
      <thead>
        <tr>
          <th>Series</th>
          <th className="num">Points</th>
          <th className="num">Min</th>
          <th className="num">Mean</th>
          <th className="num">Max</th>
          <th>Unit</th>
        </tr>
      </thead>
      <tbody>
        {series.map((s) => {
          const sum = seriesSummary(s);
          const f = (v: number | null) => (v === null ? '—' : formatMetricValue(v, s.unit));
          return (
            <tr key={s.id} data-series-id={s.id}>
              <td>
                <span className="swatch" style={{ background: s.color }} aria-hidden="true" /> <span className="mono metric-summary__title">{s.title}</span>
                {s.drawn === 'rate' ? <span className="muted"> (rate per second)</span> : null}
              </td>
              <td className="num mono">{formatCount(sum.points)}</td>
              <td className="num mono" data-stat="min">
                {f(sum.min)}
              </td>
              <td className="num mono" data-stat="mean" title={sum.meanNote ?? undefined}>
                {f(sum.mean)}
              </td>
              <td className="num mono" data-stat="max">
                {f(sum.max)}
              </td>
              <td className="mono">{s.unit || '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
