import { LEGEND_BAR_PX, legendGradient, legendTicks, type HeatScale } from './colour';

/** What one cell's colour counts, for the legend's caption. */
const perCell = (unit: string): string => (unit === 'ns' ? 'time per cell' : `${unit} per cell`);

/**
 * The colour ramp as a bar with the values it stands for: the smallest and largest cell at its
 * ends, round values between (square-root spaced, like the cells), and the empty-cell swatch.
 */
export function HeatmapLegend({ scale, unit }: { scale: HeatScale; unit: string }) {
  const ticks = legendTicks(scale, unit);
  if (ticks.length === 0) return null;
  return (
    <figure className="heatmap-legend small" data-testid="heatmap-legend" aria-label={`Colour scale: ${ticks.map((t) => t.label).join(', ')}`}>
      <span className="heatmap-legend__empty">
        <span className="heatmap-legend__swatch" aria-hidden="true" />
        empty
      </span>
      <div className="heatmap-legend__scale" style={{ width: LEGEND_BAR_PX }}>
        <div className="heatmap-legend__bar" style={{ background: legendGradient() }} aria-hidden="true" />
        <ol className="heatmap-legend__ticks">
          {ticks.map((t) => (
            <li
              key={t.value}
              className={`heatmap-legend__tick${t.at === 0 ? ' heatmap-legend__tick--first' : t.at === 1 ? ' heatmap-legend__tick--last' : ''}`}
              style={{ left: `${t.at * 100}%` }}
              data-testid="heatmap-legend-tick"
            >
              {t.label}
            </li>
          ))}
        </ol>
      </div>
      <figcaption className="muted">{perCell(unit)} · darker is more · square-root scale</figcaption>
    </figure>
  );
}
