import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { setCaptureStart } from '../../api/endpoints';
import { errorMessage } from '../../api/http';
import type { Capture } from '../../api/types';
import { localInputToUtcIso, toLocalInputValue } from '../../shared/time';
import { useRefreshCaptures } from './queries';

/**
 * "Set start…": for a capture on its own clock (perf script without its wall-clock column, no anchors
 * of its host), the wall-clock time its recording started; the server places the first record there.
 */
export function StartForm({ capture: c }: { capture: Capture }) {
  const [open, setOpen] = useState(false);
  const given = c.clock.mode === 'user-start' && c.time_start ? toLocalInputValue(new Date(c.time_start)) : '';
  const [text, setText] = useState(given);
  const refresh = useRefreshCaptures(c.incident_id);
  const id = useId();
  const start = useMutation<Capture, Error, string | null>({
    mutationFn: (value) => setCaptureStart(c.id, value),
    onSuccess: () => setOpen(false),
    onSettled: refresh,
  });
  const iso = localInputToUtcIso(text);
  if (!open) {
    return (
      <button type="button" className="btn btn--small btn--ghost shift-toggle" data-testid="set-start" onClick={() => setOpen(true)}>
        {c.clock.mode === 'user-start' ? 'Change start…' : 'Set start…'}
      </button>
    );
  }
  return (
    <form
      className="shift-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (iso) start.mutate(iso);
      }}
    >
      <label htmlFor={id} className="small">
        Recording started at (your local time)
      </label>
      <div className="row">
        <input
          id={id}
          type="datetime-local"
          step={1}
          className={start.isError ? 'invalid' : undefined}
          value={text}
          autoFocus
          data-testid="start-input"
          aria-invalid={start.isError}
          aria-describedby={`${id}-help`}
          onChange={(e) => {
            setText(e.target.value);
            start.reset();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        />
        <button type="submit" className="btn btn--small" disabled={start.isPending || !iso}>
          {start.isPending ? 'Placing…' : 'Place'}
        </button>
        {c.clock.mode === 'user-start' ? (
          <button type="button" className="btn btn--small btn--ghost" disabled={start.isPending} onClick={() => start.mutate(null)}>
            Forget
          </button>
        ) : null}
        <button type="button" className="btn btn--small btn--ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {start.isError ? (
        <p id={`${id}-help`} className="field-error small" role="alert">
          {errorMessage(start.error)}
        </p>
      ) : (
        <p id={`${id}-help`} className="muted small">
          Its first record is placed there. Better: upload the host’s clock anchors, or record with <code>perf record -k CLOCK_MONOTONIC</code> and
          convert with <code>perf script -F +pid,+ip,+sym,+dso,+tod</code>.
        </p>
      )}
    </form>
  );
}
