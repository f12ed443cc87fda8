import { crumbIndexes } from './crumbs';
import './flameChart.css';

/**
 * The zoomed frame's path as buttons: the keyboard way to zoom out to any ancestor. Frames of the
 * path that the current view does not contain (other filters, detail still loading) are struck out.
 */
export function ZoomCrumbs({ zoom, present, onZoom }: { zoom: string[]; present: number; onZoom: (path: string[]) => void }) {
  const indexes = crumbIndexes(zoom.length);
  const hidden = zoom.length - indexes.length + 1;
  return (
    <nav className="zoom-crumbs" aria-label="Zoom path" data-testid="zoom-crumbs">
      <button type="button" className="zoom-crumbs__item" onClick={() => onZoom([])} disabled={zoom.length === 0}>
        all
      </button>
      {indexes.map((i) => {
        if (i === null) {
          return (
            <span key="hidden" className="zoom-crumbs__step muted small">
              › ⋯ {hidden.toLocaleString('en-US')} frames ⋯
            </span>
          );
        }
        const name = zoom[i] ?? '';
        return (
          <span key={i} className="zoom-crumbs__step">
            <span aria-hidden="true" className="muted">
              ›
            </span>
            <button
              type="button"
              className={`zoom-crumbs__item mono${i >= present ? ' zoom-crumbs__missing' : ''}`}
              title={i >= present ? `${name} (not in this view)` : name}
              onClick={() => onZoom(zoom.slice(0, i + 1))}
              disabled={i === zoom.length - 1}
              aria-current={i === zoom.length - 1 ? 'location' : undefined}
            >
              {name}
            </button>
          </span>
        );
      })}
      {present < zoom.length ? <span className="muted small">— not all of this path is in the current view</span> : null}
    </nav>
  );
}
