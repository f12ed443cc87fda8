import { describe, expect, it } from 'vitest';
import { standaloneSvg } from './exportImage';

const SVG_NS = 'http://www.w3.org/2000/svg';

function chart(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', '400');
  svg.setAttribute('height', '36');
  const g = document.createElementNS(SVG_NS, 'g');
  g.setAttribute('class', 'frame');
  const rect = document.createElementNS(SVG_NS, 'rect');
  rect.setAttribute('width', '200');
  rect.setAttribute('height', '18');
  const fo = document.createElementNS(SVG_NS, 'foreignObject');
  fo.setAttribute('x', '10');
  fo.setAttribute('y', '18');
  fo.setAttribute('width', '60');
  fo.setAttribute('height', '18');
  const div = document.createElement('div');
  div.textContent = 'std::operator<< <char>(std::ostream&)';
  fo.append(div);
  const wide = document.createElementNS(SVG_NS, 'foreignObject');
  wide.setAttribute('width', '400');
  wide.textContent = 'a<b & "c"';
  const tiny = document.createElementNS(SVG_NS, 'foreignObject');
  tiny.setAttribute('width', '5');
  tiny.textContent = 'x';
  g.append(rect, fo, wide, tiny);
  svg.append(g);
  return svg;
}

describe('standaloneSvg', () => {
  it('inlines a style and background, and turns HTML labels into truncated, escaped SVG text', () => {
    const markup = standaloneSvg(chart());
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    expect(doc.documentElement.namespaceURI).toBe(SVG_NS);
    expect(markup).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(doc.querySelectorAll('foreignObject')).toHaveLength(0);
    const texts = Array.from(doc.querySelectorAll('text')).map((t) => t.textContent);
    expect(texts).toEqual(['std::o…', 'a<b & "c"']);
    expect(markup).toContain('a&lt;b &amp; "c"');
    expect(doc.querySelector('style')?.textContent).toContain('font-family');
    expect(doc.querySelector('text')?.getAttribute('x')).toBe('14');
  });
});
