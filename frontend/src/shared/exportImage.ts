/**
 * Images of a view for a postmortem: the flame graph's SVG made standalone (styles inlined, HTML
 * labels turned into SVG text so any viewer and a canvas can draw it), and PNGs of SVGs or canvases.
 *
 * Frame names come from captures and can hold anything. XMLSerializer escapes `<`, `&` and `>`
 * (so `]]>` too) but writes control characters and lone surrogates as they are, which no XML
 * parser accepts: the file would not open and the PNG, drawn from it, would fail. Every text and
 * attribute of the copy goes through `xmlSafeText` first.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const LABEL_CHAR_PX = 7;

/** The largest canvas every major browser draws (Safari's area limit is 4096²; sides stop at 32,767). */
const MAX_CANVAS_AREA = 4096 * 4096;
const MAX_CANVAS_SIDE = 16_384;

const hex = (code: number, digits: number): string => code.toString(16).toUpperCase().padStart(digits, '0');

/** Bidirectional embeddings, overrides and isolates: they would reorder a label as it is read. */
const isBidiControl = (c: number): boolean => (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

/**
 * `text` with what XML 1.0 forbids or a reader cannot see shown instead: control characters as
 * `\xNN`, non-characters and bidi controls as `\uNNNN`, lone surrogates as U+FFFD. Markup
 * characters are left for the serializer to escape.
 */
export function xmlSafeText(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    let shown: string | null = null;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1; // a whole pair: any character past the Basic Multilingual Plane
        continue;
      }
      shown = '\uFFFD';
    } else if (c >= 0xdc00 && c <= 0xdfff) shown = '\uFFFD';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) shown = `\\x${hex(c, 2)}`;
    else if (c === 0xfffe || c === 0xffff || isBidiControl(c)) shown = `\\u${hex(c, 4)}`;
    if (shown !== null) {
      out += text.slice(from, i) + shown;
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Every text and attribute value under `root` made XML-safe, in place (a loop: charts are deep). */
function sanitizeTree(root: Element): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
    if (node instanceof Element) {
      for (const attr of Array.from(node.attributes)) {
        const safe = xmlSafeText(attr.value);
        if (safe !== attr.value) attr.value = safe;
      }
    } else if (node.nodeValue !== null) {
      const safe = xmlSafeText(node.nodeValue);
      if (safe !== node.nodeValue) node.nodeValue = safe;
    }
  }
}

/** The scale to draw a `width` x `height` picture at: `wanted`, or less if the canvas would be too large. */
export function canvasScale(width: number, height: number, wanted: number): number {
  const bySide = MAX_CANVAS_SIDE / Math.max(width, height, 1);
  const byArea = Math.sqrt(MAX_CANVAS_AREA / Math.max(width * height, 1));
  return Math.min(wanted, bySide, byArea);
}

/** Minimal look of the chart outside the page: the page's stylesheets do not travel with the file. */
const EXPORT_CSS = `
rect { stroke: #1b1f24; stroke-width: 0.5; }
text { font-family: Verdana, sans-serif; font-size: 12px; fill: #111; }
.fade { opacity: 0.6; }
`;

/** The label as it fits `widthPx`, cut between characters (never inside a surrogate pair). */
function truncate(text: string, widthPx: number): string {
  const max = Math.floor((widthPx - 8) / LABEL_CHAR_PX);
  if (max <= 0) return '';
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** A self-contained copy of `svg` as markup, with a background so it reads on any page. */
export function standaloneSvg(svg: SVGSVGElement, background = '#ffffff'): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const width = svg.getAttribute('width') ?? String(svg.clientWidth);
  const height = svg.getAttribute('height') ?? String(svg.clientHeight);
  clone.setAttribute('width', width);
  clone.setAttribute('height', height);
  for (const fo of Array.from(clone.querySelectorAll('foreignObject'))) {
    const label = truncate(fo.textContent.trim(), Number(fo.getAttribute('width') ?? 0));
    if (label) {
      const text = document.createElementNS(SVG_NS, 'text');
      text.setAttribute('x', String(Number(fo.getAttribute('x') ?? 0) + 4));
      text.setAttribute('y', String(Number(fo.getAttribute('y') ?? 0) + Number(fo.getAttribute('height') ?? 18) * 0.72));
      text.textContent = label;
      fo.replaceWith(text);
    } else {
      fo.remove();
    }
  }
  const style = document.createElementNS(SVG_NS, 'style');
  style.textContent = EXPORT_CSS;
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', background);
  bg.setAttribute('style', 'stroke: none');
  clone.insertBefore(bg, clone.firstChild);
  clone.insertBefore(style, clone.firstChild);
  sanitizeTree(clone);
  return new XMLSerializer().serializeToString(clone);
}

export const svgBlob = (markup: string): Blob => new Blob([markup], { type: 'image/svg+xml;charset=utf-8' });

/**
 * Draw SVG markup on a canvas at `scale` (2 = sharp on high-density screens) and encode a PNG. A
 * chart too large for a canvas at that scale (a deep stack is tall) is drawn smaller.
 */
export async function pngFromSvg(markup: string, width: number, height: number, wantedScale = 2): Promise<Blob> {
  const scale = canvasScale(width, height, wantedScale);
  const url = URL.createObjectURL(svgBlob(markup));
  try {
    const image = new Image();
    image.decoding = 'sync';
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the browser could not draw the chart as an image'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas in this browser');
    ctx.scale(scale, scale);
    ctx.drawImage(image, 0, 0, width, height);
    return await canvasPng(canvas);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the browser could not encode a PNG'))), 'image/png');
  });
}

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
