import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { rawCaptureUrl } from '../../api/endpoints';
import type { Capture } from '../../api/types';
import { ProgressBar } from '../../shared/components/ProgressBar';
import { Time } from '../../shared/components/Time';
import { Truncate } from '../../shared/components/Truncate';
import { formatCount, formatDurationNs } from '../../shared/units';
import { usePermissions } from '../auth/usePermissions';
import { CaptureFindingsBadge } from '../findings/CaptureFindingsBadge';
import { DeleteCaptureButton } from '../lifecycle/DeleteCaptureButton';
import { EMPTY_NOTE, isReady, issueCount, sizeText, statusText } from './captureStatus';
import {
  captureLinks,
  hasSamples,
  hasTimes,
  recordCountsTitle,
  recordSummary,
  takesStart,
  timeSpanText,
  warningPlace,
} from './captureView';
import { ShiftForm } from './ShiftForm';
import { StartForm } from './StartForm';

interface Props {
  capture: Capture;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onReparse: () => void;
  reparsing: boolean;
}

export const COLUMNS = 9;

function StatusCell({ c }: { c: Capture }) {
  const tone = c.status === 'failed' ? 'bad' : c.status === 'partial' ? 'warn' : c.status === 'ready' ? 'ok' : 'accent';
  return (
    <div className="status-cell">
      <span className={`status status--${c.status}`} data-testid="capture-status">
        {statusText(c)}
      </span>
      {c.status === 'parsing' || c.status === 'queued' ? (
        <ProgressBar value={c.status === 'queued' ? null : c.progress} label={`Parsing ${c.filename}`} tone={tone} />
      ) : null}
      {c.status === 'failed' && c.error ? <Truncate text={c.error} className="status-cell__reason" /> : null}
      {c.status === 'empty' ? (
        <span className="status-cell__reason muted" data-testid="capture-empty">
          {EMPTY_NOTE}
        </span>
      ) : null}
      {c.recovery_note && c.status !== 'failed' ? (
        <span className="status-cell__reason status-cell__reason--warn" title={c.recovery_note} data-testid="capture-recovery">
          recovered: {c.recovery_note}
        </span>
      ) : null}
      {c.status === 'partial' && c.dropped_lines > 0 ? (
        <span className="status-cell__reason status-cell__reason--warn">{formatCount(c.dropped_lines)} lines dropped</span>
      ) : null}
    </div>
  );
}

export function CaptureRow({ capture: c, selected, onSelect, onReparse, reparsing }: Props) {
  const [open, setOpen] = useState(c.status === 'failed');
  const issues = issueCount(c);
  const ready = isReady(c);
  const can = usePermissions();
  const canReparse = can.canRespond && (c.status === 'failed' || c.status === 'partial');
  const links = ready ? captureLinks(c) : [];
  return (
    <Fragment>
      <tr className={`capture-row capture-row--${c.status}`} data-testid="capture-row" data-capture-id={c.id}>
        <td className="shrink">
          <input
            type="checkbox"
            aria-label={`Select ${c.filename} for a combined flame graph`}
            title={ready && !hasSamples(c) ? 'Only captures with CPU samples combine into one flame graph' : undefined}
            disabled={!ready || !hasSamples(c)}
            checked={selected && ready}
            onChange={(e) => onSelect(e.target.checked)}
          />
        </td>
        <td className="wide">
          {can.canRespond ? (
            <a href={rawCaptureUrl(c.id)} className="file-link" title={`Download the stored upload (${c.filename})`}>
              <Truncate text={c.filename} mono />
            </a>
          ) : (
            <span title={`No download: ${can.whyNot('respond') ?? ''}`}>
              <Truncate text={c.filename} mono />
            </span>
          )}
          <div className="muted small one-line">
            #{c.id} · <Time iso={c.created_at} />
            {c.events.length > 0 ? ` · ${c.events.map((e) => e.name).join(', ')}` : ''}
          </div>
        </td>
        <td className="shrink small">
          {c.kind ? <div>{c.kind}</div> : null}
          <div className={c.kind ? 'mono muted' : 'mono'}>{c.format ?? <span className="muted">?</span>}</div>
        </td>
        <td className="shrink">
          <StatusCell c={c} />
          <CaptureFindingsBadge incident={c.incident_id} captureId={c.id} />
        </td>
        <td className="small records-cell" title={recordCountsTitle(c) || undefined} data-testid="capture-records">
          {ready ? recordSummary(c) || <span className="muted">no records</span> : <span className="muted">–</span>}
        </td>
        <td className="small">
          <div className="span-cell">
            <span className="nowrap mono" title={c.time_start && c.clock.mode !== 'unaligned' ? `${c.time_start} → ${c.time_end ?? '?'}` : undefined}>
              {timeSpanText(c)}
            </span>
            {c.time_start !== null && c.status !== 'queued' ? (
              <span className={`clock-badge clock-badge--${c.clock.mode ?? 'unknown'}`} title={c.clock.note || undefined} data-testid="clock-badge">
                {c.clock.mode ?? 'unknown'}
                {c.clock.shift_ns !== 0 ? ` ${c.clock.shift_ns > 0 ? '+' : ''}${formatDurationNs(c.clock.shift_ns)}` : ''}
              </span>
            ) : null}
          </div>
          {can.canRespond && ready && hasTimes(c) ? <ShiftForm capture={c} /> : null}
          {can.canRespond && ready && hasTimes(c) && takesStart(c) ? <StartForm capture={c} /> : null}
        </td>
        <td className="num shrink nowrap">{sizeText(c)}</td>
        <td className="shrink">
          {issues > 0 || c.error ? (
            <button
              type="button"
              className={`issues-toggle${c.status === 'failed' ? ' issues-toggle--bad' : ''}`}
              aria-expanded={open}
              onClick={() => setOpen((o) => !o)}
            >
              {c.status === 'failed'
                ? 'reason'
                : [
                    c.dropped_lines > 0 ? `${formatCount(c.dropped_lines)} dropped` : null,
                    c.warnings.length > 0 ? `${c.warnings.length} warn` : null,
                    c.truncated ? 'truncated' : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
              <span aria-hidden="true"> {open ? '▴' : '▾'}</span>
            </button>
          ) : (
            <span className="muted">–</span>
          )}
        </td>
        <td className="shrink actions">
          {ready
            ? links.map((l, i) => (
                <Link key={l.href} className={`btn btn--small${i === 0 ? ' btn--primary' : ''}`} to={l.href}>
                  {l.label}
                </Link>
              ))
            : null}
          {canReparse ? (
            <button type="button" className="btn btn--small" disabled={reparsing} onClick={onReparse}>
              {reparsing ? 'Re-parsing…' : 'Re-parse'}
            </button>
          ) : null}
          {can.canRespond ? <DeleteCaptureButton capture={c} /> : null}
        </td>
      </tr>
      {open && (issues > 0 || c.error) ? (
        <tr className="capture-detail">
          <td />
          <td colSpan={COLUMNS - 1}>
            {c.error ? (
              <p className="capture-detail__error" role="alert">
                <strong>Parse failed:</strong> <span className="mono">{c.error}</span>
              </p>
            ) : null}
            {c.dropped_lines > 0 ? (
              <p>
                {formatCount(c.dropped_lines)} input lines could not be parsed and were dropped; the rest of the capture is usable.
              </p>
            ) : null}
            {c.truncated ? <p>The input ended mid-record (truncated file); the last partial record was dropped.</p> : null}
            {c.warnings.length > 0 ? (
              <ol className="warnings">
                {c.warnings.map((w, i) => {
                  const place = warningPlace(w.line);
                  return (
                    <li key={i}>
                      {place !== null ? <span className="muted mono">{place} </span> : null}
                      <span className="mono">{w.message}</span>
                    </li>
                  );
                })}
              </ol>
            ) : null}
            {c.clock.note ? <p className="muted small">Clock: {c.clock.note}</p> : null}
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}
