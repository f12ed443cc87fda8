import type { Capture } from '../../api/types';
import { byHost } from './exportForm';

interface Props {
  /** The parsed captures. */
  captures: readonly Capture[];
  unticked: ReadonlySet<number>;
  onChange: (unticked: ReadonlySet<number>) => void;
}

/** The captures to export, a checkbox each, grouped by host with a checkbox for the whole host. */
export function CaptureChoice({ captures, unticked, onChange }: Props) {
  const set = (ids: number[], on: boolean) => {
    const next = new Set(unticked);
    for (const id of ids) {
      if (on) next.delete(id);
      else next.add(id);
    }
    onChange(next);
  };
  return (
    <div className="bundle-captures" data-testid="export-captures">
      {byHost(captures).map((group) => {
        const ids = group.captures.map((c) => c.id);
        const ticked = ids.filter((id) => !unticked.has(id)).length;
        return (
          <fieldset key={group.host} className="bundle-captures__host">
            <legend>
              <label className="bundle-dialog__check">
                <input
                  type="checkbox"
                  checked={ticked === ids.length}
                  ref={(box) => {
                    if (box) box.indeterminate = ticked > 0 && ticked < ids.length;
                  }}
                  onChange={(e) => set(ids, e.target.checked)}
                />
                {group.host || '(no host)'} <span className="muted small">{ids.length === 1 ? '1 capture' : `${ids.length} captures`}</span>
              </label>
            </legend>
            {group.captures.map((c) => (
              <label key={c.id} className="bundle-dialog__check bundle-captures__capture">
                <input type="checkbox" checked={!unticked.has(c.id)} data-testid="export-capture" onChange={(e) => set([c.id], e.target.checked)} />
                {c.filename}{' '}
                <span className="muted small">
                  #{c.id}
                  {c.kind ? ` · ${c.kind}` : ''}
                  {c.sample_count > 0 ? ` · ${c.sample_count.toLocaleString()} samples` : ''}
                </span>
              </label>
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
