import { legendStops } from './colour';
import { formatHeat } from './grid';

/** Swatches with the real values they stand for (square-root spaced, like the cells). */
export function HeatmapLegend({ max, unit }: { max: number; unit: string }) {
  const stops = legendStops(max, 5);
  return (
    <ul className="heatmap-legend small" aria-label="Colour scale">
      <li>
        <span className="heatmap-legend__swatch heatmap-legend__swatch--empty" aria-hidden="true" />
        empty
      </li>
      {stops.map((s, i) => (
        <li key={s.value}>
          <span className="heatmap-legend__swatch" style={{ background: s.colour }} aria-hidden="true" />
          {i === stops.length - 1 ? '' : '≤ '}
          {formatHeat(i === stops.length - 1 ? max : Math.max(1, Math.round(s.value)), unit)}
        </li>
      ))}
      <li className="muted">square-root scale</li>
    </ul>
  );
}
