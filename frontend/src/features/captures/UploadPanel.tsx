import { useId, useRef } from 'react';
import { ProgressBar } from '../../shared/components/ProgressBar';
import { Truncate } from '../../shared/components/Truncate';
import { formatBytes } from '../../shared/units';
import type { UploadItem } from './useUploads';

interface Props {
  host: string;
  onHost: (host: string) => void;
  onFiles: (files: File[]) => void;
  items: UploadItem[];
  onCancel: (key: number) => void;
  onDismiss: (key: number) => void;
  onClearFinished: () => void;
}

export function UploadPanel({ host, onHost, onFiles, items, onCancel, onDismiss, onClearFinished }: Props) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const finished = items.some((i) => i.state !== 'sending');
  return (
    <section className="card upload" aria-label="Upload captures">
      <div className="upload__controls">
        <button type="button" className="btn btn--primary" onClick={() => fileRef.current?.click()}>
          Upload files…
        </button>
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="capture-file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length > 0) onFiles(files);
          }}
        />
        <label htmlFor={`${id}-host`} className="muted small">
          Host
        </label>
        <input
          id={`${id}-host`}
          className="upload__host"
          placeholder="optional, e.g. db-3"
          value={host}
          onChange={(e) => onHost(e.target.value)}
        />
        <span className="muted small">
          or drop <code>perf script</code> files (plain, .gz or .zst) anywhere on this page
        </span>
      </div>
      {items.length > 0 ? (
        <ul className="upload__list">
          {items.map((it) => (
            <li key={it.key} className={`upload__item upload__item--${it.state}`}>
              <Truncate text={it.name} mono className="upload__name" />
              <span className="muted small nowrap">{formatBytes(it.size)}</span>
              <ProgressBar
                value={it.progress}
                label={`Uploading ${it.name}`}
                tone={it.state === 'error' ? 'bad' : it.state === 'done' ? 'ok' : 'accent'}
              />
              <span className="small nowrap upload__state">
                {it.state === 'sending'
                  ? `${Math.round(it.progress * 100)}%`
                  : it.state === 'done'
                    ? `uploaded → capture #${it.captureId ?? '?'}`
                    : ''}
              </span>
              {it.state === 'sending' ? (
                <button type="button" className="btn btn--small" onClick={() => onCancel(it.key)}>
                  Cancel
                </button>
              ) : (
                <button type="button" className="btn btn--small btn--ghost" onClick={() => onDismiss(it.key)} aria-label={`Dismiss ${it.name}`}>
                  ✕
                </button>
              )}
              {it.error ? (
                <p className="upload__error" role="alert">
                  {it.error}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {finished ? (
        <button type="button" className="btn btn--small btn--ghost" onClick={onClearFinished}>
          Clear finished
        </button>
      ) : null}
    </section>
  );
}
