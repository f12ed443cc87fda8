import { HIGHLIGHT_COLOR, KIND_LABEL, LEGEND_KINDS, kindColor } from './palette';

export function FlameLegend() {
  return (
    <ul className="legend" aria-label="Frame colours">
      {LEGEND_KINDS.map((k) => (
        <li key={k}>
          <span className="legend__swatch" style={{ background: kindColor(k) }} />
          {KIND_LABEL[k]}
        </li>
      ))}
      <li>
        <span className="legend__swatch" style={{ background: HIGHLIGHT_COLOR }} />
        search match
      </li>
    </ul>
  );
}
