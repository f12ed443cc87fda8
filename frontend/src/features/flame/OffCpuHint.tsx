import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { capturesQuery } from '../captures/queries';
import { offCpuLink } from './offCpuLink';
import type { FlameViewState } from './urlState';

/** In an empty CPU flame graph: where the captures' off-CPU time is, when they have some. */
export function OffCpuHint({ view }: { view: FlameViewState }) {
  const captures = useQuery({ ...capturesQuery(view.incident ?? 0), enabled: view.incident !== null && view.source === 'cpu' });
  const href = offCpuLink(view, captures.data);
  if (href === null) return null;
  return (
    <p data-testid="offcpu-hint">
      These captures hold scheduler switches, which record the time threads spent off the CPU, not CPU samples.{' '}
      <Link to={href} className="btn btn--primary" data-testid="offcpu-link">
        Open the off-CPU flame graph
      </Link>
    </p>
  );
}
