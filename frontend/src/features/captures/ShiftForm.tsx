import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { shiftCapture } from '../../api/endpoints';
import { errorMessage } from '../../api/http';
import type { Capture } from '../../api/types';
import { formatDurationNs } from '../../shared/units';
import { useRefreshCaptures } from './queries';

/** "Shift…": move a capture's whole time range ("+2.5s", "-300ms", "0"); the server re-times it. */
export function ShiftForm({ capture: c }: { capture: Capture }) {
  const [open, setOpen] = useState(false);
  const current = c.clock.shift_ns === 0 ? '' : `${c.clock.shift_ns > 0 ? '+' : '-'}${formatDurationNs(Math.abs(c.clock.shift_ns)).replace(/ /g, '').replace('µs', 'us')}`;
  const [text, setText] = useState(current);
  const refresh = useRefreshCaptures(c.incident_id);
  const id = useId();
  const shift = useMutation<Capture, Error, string>({
    mutationFn: (value) => shiftCapture(c.id, value),
    onSuccess: () => setOpen(false),
    onSettled: refresh,
  });
  if (!open) {
    return (
      <button type="button" className="btn btn--small btn--ghost shift-toggle" onClick={() => setOpen(true)}>
        Shift…
      </button>
    );
  }
  return (
    <form
      className="shift-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) shift.mutate(text.trim());
      }}
    >
      <label htmlFor={id} className="small">
        Shift whole capture by
      </label>
      <div className="row">
        <input
          id={id}
          className={`mono${shift.isError ? ' invalid' : ''}`}
          size={9}
          placeholder="+2.5s"
          value={text}
          autoFocus
          aria-invalid={shift.isError}
          aria-describedby={shift.isError ? `${id}-err` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            shift.reset();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        />
        <button type="submit" className="btn btn--small" disabled={shift.isPending || !text.trim()}>
          {shift.isPending ? 'Shifting…' : 'Shift'}
        </button>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {shift.isError ? (
        <p id={`${id}-err`} className="field-error small" role="alert">
          {errorMessage(shift.error)}
        </p>
      ) : (
        <p className="muted small">e.g. +2.5s, -300ms, 0 (Enter to apply, Esc to cancel)</p>
      )}
    </form>
  );
}
