/**
 * The timeline as one picture for a postmortem: every track canvas, the axis text and the track and
 * host labels, painted where they stand on the page into a single canvas.
 */

const SCALE = 2;

export function timelineImage(): HTMLCanvasElement | null {
  const chart = document.querySelector<HTMLElement>('[data-testid="timeline-chart"]');
  if (!chart) return null;
  const box = chart.getBoundingClientRect();
  const out = document.createElement('canvas');
  out.width = Math.ceil(box.width * SCALE);
  out.height = Math.ceil(box.height * SCALE);
  const ctx = out.getContext('2d');
  if (!ctx) return null;
  ctx.scale(SCALE, SCALE);
  const style = getComputedStyle(chart);
  ctx.fillStyle = getComputedStyle(document.body).backgroundColor || '#0d1117';
  ctx.fillRect(0, 0, box.width, box.height);
  for (const canvas of Array.from(chart.querySelectorAll('canvas'))) {
    const r = canvas.getBoundingClientRect();
    ctx.drawImage(canvas, r.left - box.left, r.top - box.top, r.width, r.height);
  }
  ctx.fillStyle = style.color;
  ctx.font = `11px ${style.fontFamily}`;
  const texts = chart.querySelectorAll('svg text, [data-testid="timeline-label"], [data-testid="timeline-host"]');
  for (const el of Array.from(texts)) {
    const text = el.textContent.trim().split('\n')[0] ?? '';
    if (!text) continue;
    const r = el.getBoundingClientRect();
    const line = el.tagName.toLowerCase() === 'text' ? text : (el.firstChild?.textContent ?? text).trim();
    ctx.fillText(line, r.left - box.left + (el.tagName.toLowerCase() === 'text' ? 0 : 8), r.top - box.top + 13, r.width);
  }
  return out;
}
