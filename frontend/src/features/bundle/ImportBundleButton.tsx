import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { importBundle, type BundleImport } from '../../api/bundle';
import { errorMessage } from '../../api/http';
import type { UploadHandle } from '../../api/upload';
import { ProgressBar } from '../../shared/components/ProgressBar';
import { incidentsQuery } from '../incidents/queries';
import './bundle.css';

type State = { step: 'idle' } | { step: 'sending'; name: string; fraction: number } | { step: 'failed'; name: string; message: string };

/**
 * "Import bundle…": a bundle someone exported (from this console or another) becomes a new incident;
 * once the upload is in, the page moves to it and its captures parse there like uploads.
 */
export function ImportBundleButton() {
  const [state, setState] = useState<State>({ step: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  const handle = useRef<UploadHandle<BundleImport> | null>(null);
  const navigate = useNavigate();
  const qc = useQueryClient();

  useEffect(() => () => handle.current?.abort(), []);

  const start = (file: File) => {
    setState({ step: 'sending', name: file.name, fraction: 0 });
    const upload = importBundle(file, (fraction) => setState({ step: 'sending', name: file.name, fraction }));
    handle.current = upload;
    upload.promise
      .then((imported) => {
        handle.current = null;
        void qc.invalidateQueries({ queryKey: incidentsQuery().queryKey, exact: true });
        void navigate(`/incidents/${imported.incident_id}`);
      })
      .catch((e: unknown) => {
        handle.current = null;
        setState({ step: 'failed', name: file.name, message: errorMessage(e) });
      });
  };

  return (
    <div className="bundle-import">
      <button
        type="button"
        className="btn"
        disabled={state.step === 'sending'}
        data-testid="import-bundle"
        onClick={() => input.current?.click()}
        title="A zip exported with “Export bundle…”, as a new incident"
      >
        Import bundle…
      </button>
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        hidden
        data-testid="import-bundle-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) start(file);
        }}
      />
      {state.step === 'sending' ? (
        <div className="row small" role="status" data-testid="import-progress">
          <span>
            {state.fraction < 1 ? `Uploading ${state.name}…` : `Checking ${state.name} and making the incident…`}
          </span>
          <ProgressBar value={state.fraction < 1 ? state.fraction : null} label={`Importing ${state.name}`} />
          <button type="button" className="btn btn--small" onClick={() => handle.current?.abort()}>
            Cancel
          </button>
        </div>
      ) : null}
      {state.step === 'failed' ? (
        <div className="banner banner--error" role="alert" data-testid="import-error">
          <span>
            <strong>Could not import {state.name}.</strong> {state.message}
          </span>
          <button type="button" className="btn btn--small" onClick={() => setState({ step: 'idle' })}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
