/**
 * Annotations: a small form to pin a note at a clicked time (keyed by that time, so a new click
 * starts a fresh form), and a panel to read, edit or delete one. Notes are shown as text, never as
 * HTML: they are whatever someone typed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { usePermissions } from '../auth/usePermissions';
import { epochUsFromIso, instantFromText, instantText } from '../../shared/selection';
import { annotationsKey, createAnnotation, deleteAnnotation, MAX_NOTE, updateAnnotation, type Annotation } from './api';
import { formatInstant } from './timeScale';

export function NewAnnotationForm({
  incident,
  atUs,
  hosts,
  onDone,
}: {
  incident: number;
  atUs: number;
  hosts: string[];
  onDone: () => void;
}) {
  const qc = useQueryClient();
  const ids = useId();
  const can = usePermissions();
  const [when, setWhen] = useState(() => instantText(atUs));
  const [text, setText] = useState('');
  const [host, setHost] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    textRef.current?.focus();
  }, []);
  const create = useMutation({
    mutationFn: () => createAnnotation(incident, { ts: when, text, host: host || null }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: annotationsKey(incident) });
      onDone();
    },
  });
  const badTime = instantFromText(when) === null;
  const problem = badTime ? 'The time must be ISO 8601 with a zone, e.g. 2026-11-21T08:00:01.5Z.' : text.trim() === '' ? 'Write something.' : null;
  return (
    <form
      className="tl-note-form card"
      data-testid="annotation-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) create.mutate();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone();
      }}
    >
      <div className="tl-note-form__head">
        <strong>New annotation</strong>
        <span className="muted small">{badTime ? '' : formatInstant(instantFromText(when) ?? atUs, 'local')} local</span>
      </div>
      <label htmlFor={`${ids}-when`} className="small">
        Time (UTC)
      </label>
      <input id={`${ids}-when`} className="mono" value={when} onChange={(e) => setWhen(e.currentTarget.value)} aria-invalid={badTime} />
      <label htmlFor={`${ids}-text`} className="small">
        Note
      </label>
      <textarea
        id={`${ids}-text`}
        ref={textRef}
        rows={2}
        maxLength={MAX_NOTE}
        placeholder='e.g. "set LD_BIND_NOW=y"'
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <label htmlFor={`${ids}-host`} className="small">
        Host
      </label>
      <select id={`${ids}-host`} value={host} onChange={(e) => setHost(e.currentTarget.value)}>
        <option value="">the whole incident</option>
        {hosts.map((h) => (
          <option key={h} value={h}>
            {h || '(no host)'}
          </option>
        ))}
      </select>
      {create.isError ? <ErrorBanner title="Could not save the annotation." error={create.error} /> : null}
      <div className="tl-note-form__actions">
        <span className="muted small">{problem ?? `${text.length} / ${MAX_NOTE}`}</span>
        <button type="button" className="btn btn--ghost btn--small" onClick={onDone}>
          Cancel
        </button>
        <button
          type="submit"
          className="btn btn--primary btn--small"
          disabled={problem !== null || create.isPending || !can.canRespond}
          title={can.whyNot('respond') ?? undefined}
        >
          {create.isPending ? 'Saving…' : 'Pin note'}
        </button>
      </div>
    </form>
  );
}

export function AnnotationDetail({ annotation, onClose }: { annotation: Annotation; onClose: () => void }) {
  const qc = useQueryClient();
  const ids = useId();
  const can = usePermissions();
  const readOnly = can.whyNot('respond');
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(annotation.text);
  const key = annotationsKey(annotation.incident_id);
  const save = useMutation({
    mutationFn: () => updateAnnotation(annotation.id, text),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: key });
      setEditing(false);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteAnnotation(annotation.id),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: key });
      onClose();
    },
  });
  const us = epochUsFromIso(annotation.ts);
  return (
    <div className="tl-note-detail card" data-testid="annotation-detail" role="dialog" aria-label="Annotation">
      <div className="tl-note-form__head">
        <strong>Annotation</strong>
        <span className="muted small mono">
          {us !== null ? `${formatInstant(us, 'utc')} · ${formatInstant(us, 'local')} local` : annotation.ts}
          {annotation.host ? ` · ${annotation.host}` : ''}
        </span>
      </div>
      {editing ? (
        <>
          <label htmlFor={`${ids}-text`} className="visually-hidden">
            Note
          </label>
          <textarea id={`${ids}-text`} rows={3} maxLength={MAX_NOTE} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        </>
      ) : (
        <p className="tl-note-detail__text">{annotation.text}</p>
      )}
      {save.isError ? <ErrorBanner title="Could not save." error={save.error} /> : null}
      {remove.isError ? <ErrorBanner title="Could not delete." error={remove.error} /> : null}
      <div className="tl-note-form__actions">
        {editing ? (
          <>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="button" className="btn btn--primary btn--small" disabled={text.trim() === '' || save.isPending} onClick={() => save.mutate()}>
              Save
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn--small" disabled={!can.canRespond} title={readOnly ?? undefined} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn--small btn--ghost"
              disabled={remove.isPending || !can.canRespond}
              title={readOnly ?? undefined}
              onClick={() => remove.mutate()}
            >
              Delete
            </button>
            <button type="button" className="btn btn--small btn--ghost" onClick={onClose}>
              Close
            </button>
          </>
        )}
      </div>
    </div>
  );
}
