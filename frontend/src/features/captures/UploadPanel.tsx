import { useId, useRef } from 'react';
import { ProgressBar } from '../../shared/components/ProgressBar';
import { Truncate } from '../../shared/components/Truncate';
import { formatBytes } from '../../shared/units';
import type { UploadItem } from './useUploads';

interface Props {
  host: string;
  onHost: (host: string) => void;
  /** The time column of CSV and JSON-lines uploads; blank: found by name or content. */
  timeColumn: string;
  onTimeColumn: (column: string) => void;
  /** Wall-clock start (datetime-local, browser time) for captures nothing else aligns; blank: none. */
  start: string;
  onStart: (start: string) => void;
  onFiles: (files: File[]) => void;
  items: UploadItem[];
  onCancel: (key: number) => void;
  onDismiss: (key: number) => void;
  onClearFinished: () => void;
}

export function UploadPanel({ host, onHost, timeColumn, onTimeColumn, start, onStart, onFiles, items, onCancel, onDismiss, onClearFinished }: Props) {
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
        <label htmlFor={`${id}-time-column`} className="muted small">
          Time column
        </label>
        <input
          id={`${id}-time-column`}
          className="upload__host"
          placeholder="found if blank"
          title="CSV and JSON-lines files: the column (or key) that holds the time, when the console picks the wrong one or none"
          data-testid="upload-time-column"
          value={timeColumn}
          onChange={(e) => onTimeColumn(e.target.value)}
        />
        <label htmlFor={`${id}-start`} className="muted small">
          Started at
        </label>
        <input
          id={`${id}-start`}
          type="datetime-local"
          step={1}
          className="upload__start"
          title="Your local time. For captures nothing else puts on the wall clock (perf script without -F +tod, no clock anchors of the host): their first record is placed here. Others ignore it."
          data-testid="upload-start"
          value={start}
          onChange={(e) => onStart(e.target.value)}
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
