import { useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { useShortcutHelp } from '../../shared/hooks/useShortcuts';
import { shortcutFor } from '../../shared/shortcuts';
import { formatPercent } from '../../shared/units';
import type { Finding } from './api';
import { consolePath } from './evidence';
import { FindingDetail } from './FindingDetail';
import { isDismissed } from './ordering';
import { FINDINGS_LIST_SHORTCUTS } from './shortcuts';
import { SeverityTag } from './SeverityTag';

interface Props {
  incident: number;
  finding: Finding;
  open: boolean;
  onToggle: () => void;
  /** False for findings that are not stored (a time window's): no verdict can be given on them. */
  verdicts?: boolean;
}

/** Arrow keys (and Home/End) move between the findings' headers of one list. */
function moveFocus(e: KeyboardEvent<HTMLButtonElement>) {
  const action = shortcutFor(FINDINGS_LIST_SHORTCUTS, e)?.action;
  if (action === undefined) return;
  const list = e.currentTarget.closest('[data-findings-list]');
  if (!list) return;
  const heads = [...list.querySelectorAll<HTMLButtonElement>('button[data-finding-head]')];
  const at = heads.indexOf(e.currentTarget);
  const next = action === 'first' ? 0 : action === 'last' ? heads.length - 1 : action === 'next' ? Math.min(heads.length - 1, at + 1) : Math.max(0, at - 1);
  e.preventDefault();
  heads[next]?.focus();
}

/** One finding: a header that expands (Enter/Space) and the main link to the view that shows it. */
export function FindingItem({ incident, finding, open, onToggle, verdicts = true }: Props) {
  useShortcutHelp(FINDINGS_LIST_SHORTCUTS);
  const dismissed = isDismissed(finding);
  const view = consolePath(finding.view);
  const detailId = `finding-${finding.id}-detail`;
  const head = useRef<HTMLButtonElement>(null);
  // Dismissed: fold it away, and keep the keyboard on its header rather than lose it with the detail.
  const fold = () => {
    if (open) onToggle();
    head.current?.focus();
  };
  return (
    <li
      id={`finding-${finding.id}`}
      className={`finding finding--${finding.severity}${dismissed ? ' finding--dismissed' : ''}${open ? ' finding--open' : ''}`}
      data-testid="finding"
      data-finding-id={finding.id}
      data-severity={finding.severity}
    >
      <div className="finding__head">
        <button ref={head} type="button" className="finding__toggle" aria-expanded={open} aria-controls={detailId} data-finding-head onClick={onToggle} onKeyDown={moveFocus}>
          <span className="finding__caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <SeverityTag severity={finding.severity} />
          <span className="finding__title">{finding.title}</span>
          <span className="finding__meta muted small">
            <span title="How sure the rule is">{formatPercent(finding.confidence)} confidence</span>
            {finding.hosts.length > 0 ? <span className="mono"> · {finding.hosts.join(', ')}</span> : null}
            {finding.verdict ? <span className={`finding__verdict-tag finding__verdict-tag--${finding.verdict.verdict}`}> · {finding.verdict.verdict}</span> : null}
          </span>
          <span className="finding__summary">{finding.summary}</span>
        </button>
        {view ? (
          <Link className="btn btn--small btn--primary finding__open" to={view} data-testid="finding-open">
            Open evidence
          </Link>
        ) : null}
      </div>
      {open ? (
        <div id={detailId}>
          <FindingDetail incident={incident} finding={finding} onDismissed={fold} verdicts={verdicts} />
        </div>
      ) : null}
    </li>
  );
}
