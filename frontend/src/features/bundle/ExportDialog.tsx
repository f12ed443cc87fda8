import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { bundleFilename, exportBundle, previewRedaction, type BundleRequest, type RedactionPolicy } from '../../api/bundle';
import { errorMessage } from '../../api/http';
import type { Capture } from '../../api/types';
import { downloadBlob } from '../../shared/exportImage';
import { ProgressBar } from '../../shared/components/ProgressBar';
import { formatBytes } from '../../shared/units';
import { CaptureChoice } from './CaptureChoice';
import { bundleRequest, exportable, initialChoices, requestKey, type ExportChoices } from './exportForm';
import { RedactionSection, type ShownPreview } from './RedactionSection';

interface Props {
  incidentId: number;
  captures: readonly Capture[];
  /** A guest link's holder: the server leaves raw captures and the postmortem out, so they are not offered. */
  asGuest: boolean;
  titleId: string;
  onClose: () => void;
}

/** The export dialog's content: what to include, the redaction and its preview, and the download. */
export function ExportDialog({ incidentId, captures, asGuest, titleId, onClose }: Props) {
  const [choices, setChoices] = useState<ExportChoices>(() => (asGuest ? { ...initialChoices(), raw: false, postmortem: false } : initialChoices()));
  const [shown, setShown] = useState<ShownPreview | null>(null);
  const building = useRef<AbortController | null>(null);
  const change = (patch: Partial<ExportChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const made = bundleRequest(choices, captures);
  const request = 'request' in made ? made.request : null;
  const parsed = exportable(captures);

  // Closing the dialog unmounts this: stop building a bundle nobody will receive.
  useEffect(() => () => building.current?.abort(), []);

  const preview = useMutation<ShownPreview, Error, BundleRequest>({
    mutationFn: async (req) => ({ key: requestKey(req), mode: req.redaction.mode, result: await previewRedaction(incidentId, req) }),
    onSuccess: setShown,
  });
  const exporting = useMutation<Blob, Error, BundleRequest>({
    mutationFn: (req) => {
      const controller = new AbortController();
      building.current = controller;
      return exportBundle(incidentId, req, controller.signal);
    },
    onSuccess: (blob) => downloadBlob(blob, bundleFilename(incidentId)),
  });

  /** Preview the edited policy and keep it if the server accepts it (the add-rule form: a bad pattern is a 422). */
  const previewPolicy = async (policy: RedactionPolicy): Promise<void> => {
    const next: ExportChoices = { ...choices, mode: 'custom', policy };
    const req = bundleRequest(next, captures);
    if ('problem' in req) throw new Error(req.problem);
    const result = await previewRedaction(incidentId, req.request);
    preview.reset();
    setShown({ key: requestKey(req.request), mode: 'custom', result });
    setChoices(next);
  };

  return (
    <div className="bundle-dialog__body stack">
      <div className="bundle-dialog__head">
        <h2 id={titleId}>Export incident #{incidentId} as a bundle</h2>
        <button type="button" className="btn btn--small btn--ghost" onClick={onClose} aria-label="Close">
          Close
        </button>
      </div>
      <p className="muted small">
        One zip for a vendor or a consultant: an <code>index.html</code> that opens offline with every view, the data behind them, findings
        and a manifest, with host names, users, addresses and paths replaced by pseudonyms.
      </p>

      {parsed.length === 0 ? (
        <p className="empty" data-testid="export-nothing">
          No parsed captures to export yet: upload captures and wait until they are parsed.
        </p>
      ) : (
        <>
          <fieldset className="bundle-dialog__section">
            <legend>What to include</legend>
            <CaptureChoice captures={parsed} unticked={choices.unticked} onChange={(unticked) => change({ unticked })} />
            <div className="row">
              <label className="field">
                <span>From (ISO 8601, UTC unless zoned)</span>
                <input value={choices.start} placeholder="2024-05-01T10:15:00Z" data-testid="export-start" onChange={(e) => change({ start: e.target.value })} />
              </label>
              <label className="field">
                <span>To</span>
                <input value={choices.end} placeholder="blank: to the end" data-testid="export-end" onChange={(e) => change({ end: e.target.value })} />
              </label>
            </div>
            <div className="row">
              {(asGuest ? (['findings', 'annotations'] as const) : (['findings', 'annotations', 'postmortem'] as const)).map((part) => (
                <label key={part} className="bundle-dialog__check">
                  <input type="checkbox" checked={choices[part]} onChange={(e) => change({ [part]: e.target.checked })} />
                  {part === 'findings' ? 'Findings' : part === 'annotations' ? 'Annotations' : 'Postmortem'}
                </label>
              ))}
            </div>
            <label className="field">
              <span>Saved views (short links, comma-separated)</span>
              <input value={choices.views} placeholder="/s/Xk3d9aQe" data-testid="export-views" onChange={(e) => change({ views: e.target.value })} />
            </label>
            {asGuest ? (
              <p className="muted small">A guest link&apos;s bundle holds the captures and views the link shows, without raw captures or the postmortem.</p>
            ) : (
              <label className="bundle-dialog__check">
                <input type="checkbox" checked={choices.raw} data-testid="export-raw" onChange={(e) => change({ raw: e.target.checked })} />
                Raw captures <span className="muted small">(redacted too; they make the bundle bigger)</span>
              </label>
            )}
          </fieldset>

          <RedactionSection
            choices={choices}
            request={request}
            shown={shown}
            previewing={preview.isPending}
            previewError={preview.isError ? preview.error : null}
            onChoices={change}
            onPreview={() => {
              if (request) preview.mutate(request);
            }}
            onPreviewPolicy={previewPolicy}
          />

          {'problem' in made ? (
            <p className="field-error" role="alert" data-testid="export-problem">
              {made.problem}
            </p>
          ) : null}

          <div className="row bundle-dialog__actions">
            <button
              type="button"
              className="btn btn--primary"
              data-testid="export-start-button"
              disabled={request === null || exporting.isPending}
              onClick={() => {
                if (request) exporting.mutate(request);
              }}
            >
              Export
            </button>
            {exporting.isPending ? (
              <button type="button" className="btn btn--small" onClick={() => building.current?.abort()}>
                Cancel
              </button>
            ) : null}
            <span className="muted small">Saved as {bundleFilename(incidentId)}</span>
          </div>
          {exporting.isPending ? (
            <div className="stack stack--tight" role="status" data-testid="export-building">
              <span>Building the bundle… on a big incident this takes up to a minute; closing this dialog cancels it.</span>
              <ProgressBar value={null} label="Building the bundle" />
            </div>
          ) : null}
          {exporting.isError ? (
            <p className="banner banner--error" role="alert" data-testid="export-error">
              {exporting.error instanceof DOMException && exporting.error.name === 'AbortError'
                ? 'Export cancelled.'
                : `The export failed: ${errorMessage(exporting.error)}`}
            </p>
          ) : null}
          {exporting.isSuccess ? (
            <p className="muted small" role="status" data-testid="export-done">
              Downloaded {bundleFilename(incidentId)} ({formatBytes(exporting.data.size)}).
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
