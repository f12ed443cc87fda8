/** In-flight uploads of one incident: local UI state (progress per file), not server state. */
import { localInputToUtcIso } from '../../shared/time';
import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadUrl } from '../../api/endpoints';
import { errorMessage } from '../../api/http';
import { uploadCapture, withUploadOptions } from '../../api/upload';

export interface UploadItem {
  key: number;
  name: string;
  size: number;
  /** 0..1 of the bytes sent */
  progress: number;
  state: 'sending' | 'done' | 'error';
  error: string | null;
  captureId: number | null;
}

let nextKey = 1;

export function useUploads(incidentId: number, onUploaded: () => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  /** The time column the next uploads name (CSV and JSON lines); blank: the console finds it. */
  const [timeColumn, setTimeColumn] = useState('');
  const timeColumnRef = useRef(timeColumn);
  /** The wall-clock start the next uploads give (a datetime-local value, the browser's time zone). */
  const [start, setStart] = useState('');
  const startRef = useRef(start);
  useEffect(() => {
    timeColumnRef.current = timeColumn;
    startRef.current = start;
  });
  const aborts = useRef(new Map<number, () => void>());
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onUploadedRef.current = onUploaded;
  });

  useEffect(() => {
    const pending = aborts.current;
    return () => {
      for (const abort of pending.values()) abort();
      pending.clear();
    };
  }, []);

  const patch = (key: number, p: Partial<UploadItem>) =>
    setItems((list) => list.map((it) => (it.key === key ? { ...it, ...p } : it)));

  const upload = useCallback(
    (files: readonly File[], host: string) => {
      for (const file of files) {
        const key = nextKey++;
        setItems((list) => [
          ...list,
          { key, name: file.name, size: file.size, progress: 0, state: 'sending', error: null, captureId: null },
        ]);
        const url = withUploadOptions(uploadUrl(incidentId, file.name, host), {
          timeColumn: timeColumnRef.current,
          start: localInputToUtcIso(startRef.current) ?? '',
        });
        const handle = uploadCapture(url, file, (progress) => patch(key, { progress }));
        aborts.current.set(key, handle.abort);
        handle.promise
          .then((capture) => {
            patch(key, { state: 'done', progress: 1, captureId: capture.id });
            onUploadedRef.current();
          })
          .catch((e: unknown) => patch(key, { state: 'error', error: errorMessage(e) }))
          .finally(() => aborts.current.delete(key));
      }
    },
    [incidentId],
  );

  const cancel = (key: number) => aborts.current.get(key)?.();
  const dismiss = (key: number) => setItems((list) => list.filter((it) => it.key !== key));
  const clearFinished = () => setItems((list) => list.filter((it) => it.state === 'sending'));

  return { items, upload, cancel, dismiss, clearFinished, timeColumn, setTimeColumn, start, setStart };
}
