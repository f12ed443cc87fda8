// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { canvasScale, standaloneSvg, xmlSafeText } from './exportImage';

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

/** Frame names a capture can hold: control characters, a lone surrogate, markup, bidi overrides. */
const HOSTILE = [
  'nul\u0000bell\u0007esc\u001b[31m',
  'tab\tnewline\ncr\r',
  'lone \ud800 high and \udc00 low',
  'a<b & "c" ]]> d',
  'evil\u202egnp.exe \u2066isolated\u2069',
  'nonchar \uffff \ufffe',
  'fine: café 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🔥',
];

function hostileChart(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', '2000');
  svg.setAttribute('height', String(20 * HOSTILE.length));
  HOSTILE.forEach((name, i) => {
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'frame');
    g.setAttribute('name', name); // d3-flame-graph writes each frame's name as an attribute too
    const fo = document.createElementNS(SVG_NS, 'foreignObject');
    fo.setAttribute('y', String(20 * i));
    fo.setAttribute('width', '2000');
    const div = document.createElement('div');
    div.textContent = name;
    fo.append(div);
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = name;
    g.append(fo, title);
    svg.append(g);
  });
  return svg;
}

describe('xmlSafeText', () => {
  it('shows control characters, non-characters and bidi controls, and replaces lone surrogates', () => {
    expect(xmlSafeText('nul\u0000bell\u0007esc\u001b[31m')).toBe('nul\\x00bell\\x07esc\\x1B[31m');
    expect(xmlSafeText('tab\tnl\n\u007f\u0085')).toBe('tab\\x09nl\\x0A\\x7F\\x85');
    expect(xmlSafeText('evil\u202egnp \u2066x\u2069')).toBe('evil\\u202Egnp \\u2066x\\u2069');
    expect(xmlSafeText('\uffff\ufffe')).toBe('\\uFFFF\\uFFFE');
    expect(xmlSafeText('a\ud800b\udc00c\ud800')).toBe('a\ufffdb\ufffdc\ufffd');
  });

  it('leaves everything else alone, pairs and markup included (the serializer escapes markup)', () => {
    for (const text of ['plain', 'café 🔥 𝔘', 'a<b & "c" ]]> d', '']) expect(xmlSafeText(text)).toBe(text);
  });
});

describe('standaloneSvg with any frame name', () => {
  it('writes XML that parses, with every name visible in labels and attributes', () => {
    const markup = standaloneSvg(hostileChart());
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const labels = Array.from(doc.querySelectorAll('text')).map((t) => t.textContent);
    expect(labels).toEqual(HOSTILE.map((name) => xmlSafeText(name.trim()))); // labels are trimmed
    expect(labels[0]).toBe('nul\\x00bell\\x07esc\\x1B[31m');
    expect(labels[3]).toBe('a<b & "c" ]]> d');
    expect(markup).toContain('a&lt;b &amp; "c" ]]&gt; d');
    expect(Array.from(doc.querySelectorAll('g')).map((g) => g.getAttribute('name'))).toEqual(HOSTILE.map(xmlSafeText));
    expect(Array.from(doc.querySelectorAll('title')).map((t) => t.textContent)).toEqual(HOSTILE.map(xmlSafeText));
  });

  it('cuts long labels between characters, never inside a surrogate pair', () => {
    const svg = document.createElementNS(SVG_NS, 'svg');
    const fo = document.createElementNS(SVG_NS, 'foreignObject');
    fo.setAttribute('width', String(8 + 7 * 4)); // room for four characters
    fo.textContent = '🔥🔥🔥🔥🔥🔥';
    svg.append(fo);
    const doc = new DOMParser().parseFromString(standaloneSvg(svg), 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.querySelector('text')?.textContent).toBe('🔥🔥🔥…');
  });
});

describe('canvasScale', () => {
  it('keeps the wanted scale for an ordinary chart and shrinks a tall one to a drawable canvas', () => {
    expect(canvasScale(1200, 600, 2)).toBe(2);
    const tall = canvasScale(1200, 5200, 2); // 256 levels of a deep stack
    expect(tall).toBeLessThan(2);
    expect(1200 * tall * 5200 * tall).toBeLessThanOrEqual(4096 * 4096 + 1);
    expect(20_000 * canvasScale(1200, 20_000, 2)).toBeLessThanOrEqual(16_384);
  });
});
