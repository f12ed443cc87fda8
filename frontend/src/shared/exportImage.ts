/**
 * Images of a view for a postmortem: the flame graph's SVG made standalone (styles inlined, HTML
 * labels turned into SVG text so any viewer and a canvas can draw it), and PNGs of SVGs or canvases.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const LABEL_CHAR_PX = 7;

/** Minimal look of the chart outside the page: the page's stylesheets do not travel with the file. */
const EXPORT_CSS = `
rect { stroke: #1b1f24; stroke-width: 0.5; }
text { font-family: Verdana, sans-serif; font-size: 12px; fill: #111; }
.fade { opacity: 0.6; }
`;

function truncate(text: string, widthPx: number): string {
  const max = Math.floor((widthPx - 8) / LABEL_CHAR_PX);
  if (max <= 0) return '';
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
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
  return new XMLSerializer().serializeToString(clone);
}

export const svgBlob = (markup: string): Blob => new Blob([markup], { type: 'image/svg+xml;charset=utf-8' });

/** Draw SVG markup on a canvas at `scale` (2 = sharp on high-density screens) and encode a PNG. */
export async function pngFromSvg(markup: string, width: number, height: number, scale = 2): Promise<Blob> {
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
