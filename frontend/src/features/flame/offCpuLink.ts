/**
 * A way out of an empty CPU flame graph: a scheduler capture (`sched_switch` events) has no CPU
 * samples, but the time its threads spent off the CPU makes an off-CPU flame graph. Pure.
 */
import type { Capture } from '../../api/types';
import { selectedCaptureIds } from '../captures/selectionCaptures';
import { flameHref, type FlameViewState } from './urlState';

/**
 * The off-CPU flame graph of the same selection (times, hosts, process and thread filters), when a CPU
 * flame graph's captures (its own, or else the incident's parsed ones) hold off-CPU intervals; else null.
 */
export function offCpuLink(view: FlameViewState, incidentCaptures: readonly Capture[] | undefined): string | null {
  if (view.source !== 'cpu' || !incidentCaptures) return null;
  const named = view.captures.length > 0;
  const candidates = named ? incidentCaptures.filter((c) => view.captures.includes(c.id)) : [...incidentCaptures];
  const offCpu = selectedCaptureIds(candidates, { ...view, captures: [] }, 'off-cpu');
  if (offCpu.length === 0) return null;
  return flameHref({ ...view, source: 'off-cpu', state: null, event: null, search: '', zoom: [], captures: named ? offCpu : [] });
}
