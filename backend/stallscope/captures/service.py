"""Capture use cases: record an upload, report on it, queue it for (re-)parsing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from stallscope.blobs.store import StoredBlob
from stallscope.captures import repository
from stallscope.captures.schemas import CaptureOut, ClockOut, EventOut, UploadInfo, WarningOut
from stallscope.incidents.service import require_incident
from stallscope.ingest.clock import START_GIVEN_KEY
from stallscope.kit.errors import Invalid, NotFound
from stallscope.kit.text import strip_bidi_controls
from stallscope.kit.units import parse_duration_ns, parse_wall_clock_ns
from stallscope.models import Capture

MAX_FILENAME = 255


def require_captures(session: Session, capture_ids: list[int], side: str | None = None) -> list[Capture]:
    """The captures a view reads, or an error that names what is missing (and the diff side)."""
    if not capture_ids:
        if side is not None:
            raise Invalid(f"side {side} has no captures: choose at least one ({side.lower()}.captures=1,2)")
        raise Invalid("choose at least one capture (?captures=1,2)")
    captures = repository.get_captures(session, capture_ids)
    missing = sorted(set(capture_ids) - {c.id for c in captures})
    if missing:
        noun, verb = ("capture", "does") if len(missing) == 1 else ("captures", "do")
        where = f"side {side}: " if side is not None else ""
        raise NotFound(f"{where}{noun} {', '.join(map(str, missing))} {verb} not exist")
    return captures


def unit_of(captures: list[Capture], event: str | None) -> str:
    """The unit the captures give an event's weights (ns for cpu-clock periods, else samples)."""
    for capture in captures:
        for entry in capture.events:
            if entry.get("name") == event:
                return str(entry.get("unit", "samples"))
    return "samples"


def to_out(capture: Capture, host: str | None) -> CaptureOut:
    return CaptureOut(
        id=capture.id,
        incident_id=capture.incident_id,
        host=host,
        filename=capture.filename,
        format=capture.format,
        kind=capture.kind,
        status=capture.status,
        progress=capture.progress,
        error=capture.error,
        warnings=[WarningOut(**w) for w in capture.warnings],
        dropped_lines=capture.dropped_lines,
        truncated=capture.truncated,
        sha256=capture.sha256,
        compression=capture.compression,
        size_bytes=capture.size_bytes,
        size_uncompressed=capture.size_uncompressed,
        sample_count=capture.sample_count,
        stack_count=capture.stack_count,
        thread_count=capture.thread_count,
        events=[EventOut(**e) for e in capture.events],
        time_start=capture.time_start,
        time_end=capture.time_end,
        clock=ClockOut.of(capture.clock or {}),
        record_counts=capture.record_counts,
        meta=capture.meta,
        created_at=capture.created_at,
        parsed_at=capture.parsed_at,
        recovery_note=capture.recovery_note,
    )


def _outs(session: Session, captures: list[Capture]) -> list[CaptureOut]:
    names = repository.host_names(session, {c.host_id for c in captures if c.host_id is not None})
    return [to_out(c, names.get(c.host_id) if c.host_id is not None else None) for c in captures]


def list_captures(session: Session, incident_id: int) -> list[CaptureOut]:
    require_incident(session, incident_id)
    return _outs(session, repository.list_for_incident(session, incident_id))


def require_capture(session: Session, capture_id: int) -> Capture:
    capture = repository.get_capture(session, capture_id)
    if capture is None:
        raise NotFound(f"capture {capture_id} does not exist")
    return capture


def get_capture(session: Session, capture_id: int) -> CaptureOut:
    return _outs(session, [require_capture(session, capture_id)])[0]


def earlier_upload(session: Session, incident_id: int, upload_key: str) -> CaptureOut | None:
    """What an earlier try of the upload with this key made (it may be in the trash since)."""
    found = repository.with_upload_key(session, incident_id, upload_key)
    return None if found is None else _outs(session, [found])[0]


def clean_filename(filename: str) -> str:
    """Keep the base name only: it is shown to people and never used as a path."""
    name = strip_bidi_controls(Path(filename.replace("\\", "/")).name).strip()
    if not name:
        raise Invalid("the upload needs a file name (?filename=...)")
    return name[:MAX_FILENAME]


def _queued(**fields: Any) -> Capture:
    """A capture row that has not been parsed yet: `fields` say what it is and where its upload
    is stored; everything a parse fills starts empty."""
    return Capture(
        status="queued",
        progress=0.0,
        parse_attempt=1,
        queued_at=datetime.now(UTC),
        recoveries=0,
        warnings=[],
        events=[],
        record_counts={},
        dropped_lines=0,
        truncated=False,
        sample_count=0,
        stack_count=0,
        thread_count=0,
        **fields,
    )


def record_upload(session: Session, incident_id: int, upload: UploadInfo, blob: StoredBlob) -> Capture:
    """Create the capture row for a stored upload; it starts `queued`."""
    require_incident(session, incident_id)
    host = upload.host.strip() if upload.host else ""
    capture = repository.add_capture(
        session,
        _queued(
            incident_id=incident_id,
            host_id=repository.host_id_for(session, host) if host else None,
            filename=clean_filename(upload.filename),
            format=upload.format or None,
            kind=upload.kind or None,
            clock=upload.clock,
            meta=upload.meta,
            sha256=blob.sha256,
            compression=blob.compression.value,
            size_bytes=blob.size_bytes,
            size_uncompressed=blob.size_uncompressed,
            blob_path=blob.location,
            upload_key=upload.upload_key,
        ),
    )
    session.refresh(capture)
    return capture


def copy_capture(session: Session, source: Capture, incident_id: int, host: str | None = None) -> Capture:
    """A new capture of `incident_id` made from the same stored upload as `source` (uploads are
    kept by content, so both point at one file), with its format, kind, clock and meta, and its host
    or `host`; it starts `queued`, to be parsed as its own."""
    return repository.add_capture(
        session,
        _queued(
            incident_id=incident_id,
            host_id=source.host_id if host is None else repository.host_id_for(session, host),
            filename=source.filename,
            format=source.format,
            kind=source.kind,
            clock=source.clock,
            meta=source.meta,
            sha256=source.sha256,
            compression=source.compression,
            size_bytes=source.size_bytes,
            size_uncompressed=source.size_uncompressed,
            blob_path=source.blob_path,
        ),
    )


def set_shift(session: Session, capture_id: int, shift: str) -> Capture:
    """Record a person's correction of the capture's clock; a re-parse re-times every record."""
    try:
        shift_ns = parse_duration_ns(shift)
    except ValueError as exc:
        raise Invalid(str(exc)) from exc
    capture = require_capture(session, capture_id)
    capture.clock = {**capture.clock, "shift_ns": shift_ns}
    return mark_requeued(session, capture_id)


def set_start(session: Session, capture_id: int, start: str | None) -> Capture:
    """Record the wall-clock start a person gave; a re-parse places the first record there.

    It replaces any shift given before: a start is absolute, and a shift on top of it would move the
    capture away from the time the person just typed.
    """
    clock = dict(require_capture(session, capture_id).clock or {})
    clock.pop("shift_ns", None)
    clock.pop(START_GIVEN_KEY, None)
    if start is not None and start.strip():
        try:
            clock[START_GIVEN_KEY] = parse_wall_clock_ns(start)
        except ValueError as exc:
            raise Invalid(str(exc)) from exc
    capture = require_capture(session, capture_id)
    capture.clock = clock
    return mark_requeued(session, capture_id)


def mark_requeued(session: Session, capture_id: int) -> Capture:
    """Queue a new parse attempt on a person's request; messages for older attempts are ignored."""
    capture = require_capture(session, capture_id)
    capture.status = "queued"
    capture.progress = 0.0
    capture.error = None
    capture.parse_attempt += 1
    capture.queued_at = datetime.now(UTC)
    capture.recoveries = 0
    capture.recovery_note = None
    session.flush()
    return capture
