import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { errorMessage } from '../../api/http';
import { usePermissions } from '../../features/auth/usePermissions';
import { copyText } from '../clipboard';
import { canvasPng, downloadBlob, pngFromSvg, standaloneSvg, svgBlob } from '../exportImage';
import { useShortcuts } from '../hooks/useShortcuts';
import { createShortLink, currentTarget } from '../share';
import type { ShortcutGroup } from '../shortcuts';
import './ShareMenu.css';

/** What a view can export as a picture: its chart's SVG, or the canvas it draws on. */
export type ImageSource = () => SVGSVGElement | HTMLCanvasElement | null;

interface Props {
  image?: ImageSource | undefined;
  /** File name without extension, e.g. "flame-incident-4". */
  imageName?: string | undefined;
}

const SHARE_SHORTCUTS: ShortcutGroup<'toggle'> = {
  title: 'Share',
  place: 'everywhere',
  shortcuts: [{ action: 'toggle', keys: ['s'], does: 'Open or close the share menu: a short link, the chart as SVG or PNG' }],
};

/**
 * `Share` (or the `s` key): a short link to exactly this view, copied for a postmortem, and the
 * chart as SVG or PNG. The link stores the whole URL, so it opens the same view after restarts.
 */
export function ShareMenu({ image, imageName = 'stallscope' }: Props) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const target = currentTarget(location);
  // Short links are stored by the server, which only responders and admins may ask of it.
  const noLinks = usePermissions().whyNot('respond');
  // Idempotent on the server (one link per view), so it is safe to treat as a query.
  const link = useQuery({
    queryKey: ['share', target],
    queryFn: () => createShortLink(target),
    enabled: open && noLinks === null,
    staleTime: Infinity,
    retry: false,
  });
  const url = link.data ? `${window.location.origin}${link.data.path}` : '';

  useShortcuts(SHARE_SHORTCUTS, { toggle: () => setOpen((o) => !o) });

  const exportAs = async (kind: 'svg' | 'png') => {
    const source = image?.();
    if (!source) {
      setStatus('Nothing drawn to export yet.');
      return;
    }
    try {
      if (source instanceof HTMLCanvasElement) {
        downloadBlob(await canvasPng(source), `${imageName}.png`);
        return;
      }
      const markup = standaloneSvg(source);
      if (kind === 'svg') downloadBlob(svgBlob(markup), `${imageName}.svg`);
      else downloadBlob(await pngFromSvg(markup, source.clientWidth || 1200, source.clientHeight || 600), `${imageName}.png`);
    } catch (e) {
      setStatus(errorMessage(e));
    }
  };
  const canSvg = image !== undefined;

  return (
    <div className="share">
      <button
        ref={button}
        type="button"
        className="btn btn--small"
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        data-testid="share-button"
        title="Share this view (s)"
      >
        Share
      </button>
      {open ? (
        <div
          className="share__panel"
          role="dialog"
          aria-label="Share this view"
          onKeyDown={(e) => {
            // Esc closes the panel only, not the view behind it (which listens on the window).
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }}
        >
          <label className="field">
            <span>Short link to this exact view</span>
            <input
              readOnly
              value={url}
              placeholder={noLinks !== null ? `no short link: ${noLinks}` : link.isFetching ? 'making a short link…' : ''}
              data-testid="share-url"
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
          <div className="row">
            <button
              type="button"
              className="btn btn--small"
              disabled={!url}
              data-testid="share-copy"
              onClick={() => void copyText(url).then((ok) => setStatus(ok ? 'Copied to the clipboard' : 'Copy failed: select the link and copy it'))}
            >
              Copy link
            </button>
            {canSvg ? (
              <>
                <button type="button" className="btn btn--small" onClick={() => void exportAs('svg')} data-testid="export-svg">
                  Download SVG
                </button>
                <button type="button" className="btn btn--small" onClick={() => void exportAs('png')} data-testid="export-png">
                  Download PNG
                </button>
              </>
            ) : null}
          </div>
          {link.isError ? <p className="banner banner--error small">Could not make a short link: {errorMessage(link.error)}</p> : null}
          {status ? (
            <p className="muted small" role="status">
              {status}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
