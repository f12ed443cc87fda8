import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../api/http';
import { storageQuery } from './queries';
import { rowsTitle, storageText } from './storageText';

/** What the incident keeps on disk, loaded after the page (counting rows can take a second on big incidents). */
export function StorageLine({ incident }: { incident: number }) {
  const storage = useQuery(storageQuery(incident));
  if (storage.isPending) return <p className="muted small" data-testid="incident-storage">Measuring storage…</p>;
  if (storage.isError) return <p className="muted small" data-testid="incident-storage">Storage unknown: {errorMessage(storage.error)}</p>;
  return (
    <p className="muted small" data-testid="incident-storage" title={rowsTitle(storage.data) || undefined}>
      {storageText(storage.data)}
    </p>
  );
}
