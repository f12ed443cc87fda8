import { useEffect, useId, useRef, useState } from 'react';
import type { Capture } from '../../api/types';
import { ExportDialog } from './ExportDialog';
import './bundle.css';

/**
 * "Export bundle…": a modal `<dialog>` (the browser traps focus in it, Escape closes it and focus goes
 * back to the button). Its content mounts on opening, so each opening starts from the defaults and
 * closing it cancels a bundle still being built.
 */
/** `asGuest`: a guest link's holder, whose bundle holds no raw captures and no postmortem. */
export function ExportBundleButton({ incidentId, captures, asGuest }: { incidentId: number; captures: readonly Capture[]; asGuest: boolean }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
  }, [open]);

  return (
    <div className="row">
      <button type="button" className="btn btn--small" aria-haspopup="dialog" data-testid="export-bundle" onClick={() => setOpen(true)}>
        Export bundle…
      </button>
      <dialog ref={dialog} className="bundle-dialog" aria-labelledby={titleId} data-testid="export-dialog" onClose={() => setOpen(false)}>
        {open ? <ExportDialog incidentId={incidentId} captures={captures} asGuest={asGuest} titleId={titleId} onClose={() => dialog.current?.close()} /> : null}
      </dialog>
    </div>
  );
}
