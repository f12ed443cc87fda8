import type { Capture } from '../../api/types';
import { errorMessage } from '../../api/http';
import { deleteCaptureQuestion } from './confirmations';
import { useTrashCapture } from './queries';

/** A capture row's "Delete…": to the trash after a confirmation; the row goes when the list refreshes. */
export function DeleteCaptureButton({ capture }: { capture: Pick<Capture, 'id' | 'incident_id' | 'filename'> }) {
  const trash = useTrashCapture(capture.incident_id);
  return (
    <button
      type="button"
      className="btn btn--small btn--trash"
      disabled={trash.isPending}
      title={trash.isError ? `Could not delete: ${errorMessage(trash.error)}` : 'Move to the trash'}
      onClick={() => {
        if (window.confirm(deleteCaptureQuestion(capture))) trash.mutate(capture.id);
      }}
    >
      {trash.isPending ? 'Deleting…' : trash.isError ? 'Delete failed' : 'Delete…'}
    </button>
  );
}
