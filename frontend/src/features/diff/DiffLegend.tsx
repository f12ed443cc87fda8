import { HIGHLIGHT_COLOR } from '../flame/palette';
import { GREW, hslCss, NEUTRAL, ONLY_A, ONLY_B, OTHER, OUTLINE, SHRANK } from './colors';

/** What the colours mean; the strength of red or blue is the size of the change. */
export function DiffLegend() {
  const items = [
    { key: 'grew', style: { background: `linear-gradient(90deg, ${hslCss(NEUTRAL)}, ${hslCss(GREW)})` }, text: 'grew (stronger = larger change)' },
    { key: 'shrank', style: { background: `linear-gradient(90deg, ${hslCss(NEUTRAL)}, ${hslCss(SHRANK)})` }, text: 'shrank' },
    { key: 'same', style: { background: hslCss(NEUTRAL) }, text: 'unchanged' },
    { key: 'new', style: { background: hslCss(ONLY_B), outline: `1.5px solid ${OUTLINE}` }, text: 'only in B (new)' },
    { key: 'gone', style: { background: hslCss(ONLY_A), outline: `1.5px solid ${OUTLINE}` }, text: 'only in A (gone; A view)' },
    { key: 'other', style: { background: hslCss(OTHER) }, text: '(other): pruned; (deeper): past the depth budget' },
    { key: 'match', style: { background: HIGHLIGHT_COLOR }, text: 'search match' },
  ];
  return (
    <ul className="legend" aria-label="Diff colours">
      {items.map((i) => (
        <li key={i.key}>
          <span className="legend__swatch diff-legend__swatch" style={i.style} />
          {i.text}
        </li>
      ))}
    </ul>
  );
}
