"""HTTP routes for captures: streaming upload, status, re-parse, raw download."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Annotated, Any, BinaryIO

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from sqlalchemy.exc import IntegrityError

from stallscope.auth import access, audit
from stallscope.auth.access import require_upload_scope
from stallscope.auth.guard import READ, RESPOND, UPLOAD, Reader, Uploader
from stallscope.auth.principal import Principal
from stallscope.auth.scope import SEE_CAPTURE, SEE_INCIDENT
from stallscope.blobs.configured import blob_store
from stallscope.blobs.metering import CorruptCompression, UploadTooLarge
from stallscope.blobs.store import BlobStoreUnavailable, BlobUpload, StoredBlob
from stallscope.captures import repository, service
from stallscope.captures.backpressure import UploadSlot
from stallscope.captures.parse_queue import send_parse
from stallscope.captures.schemas import CaptureOut, DocumentOut, ShiftRequest, StartRequest, UploadInfo
from stallscope.captures.upload_stream import IdleLimit, UploadStalled, store_body
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.deps import SessionDep, database_url
from stallscope.incidents.service import require_incident
from stallscope.ingest.appmetrics.time_option import TIME_COLUMN_KEY
from stallscope.ingest.clock import START_GIVEN_KEY
from stallscope.kit.errors import Forbidden, Invalid, NotFound, TooLarge, Unavailable
from stallscope.kit.text import SingleLine, download_name, first_unstorable
from stallscope.kit.units import parse_duration_ns, parse_wall_clock_ns
from stallscope.watch.streams import stream_for

log = logging.getLogger(__name__)
router = APIRouter(tags=["captures"])

STORE_RETRY_AFTER_S = 30
"""With the blob store away, when a collector should try again (it spools the capture meanwhile)."""
RAW_CHUNK_BYTES = 1 << 20
UPLOAD_KEY_MAX = 128


@router.get("/api/incidents/{incident_id}/captures", dependencies=[READ, SEE_INCIDENT])
def list_captures(incident_id: int, session: SessionDep, principal: Reader) -> list[CaptureOut]:
    """The incident's captures (a guest link limited to some captures: those)."""
    captures = service.list_captures(session, incident_id)
    if principal.capture_ids is None:
        return captures
    return [c for c in captures if c.id in principal.capture_ids]


async def _store_body(request: Request) -> StoredBlob:
    """Store the body as it streams in; storing runs in worker threads, never on the event loop."""
    settings = get_settings()
    try:
        writer = await run_in_threadpool(blob_store().start_upload, settings.max_upload_bytes)
    except BlobStoreUnavailable as exc:
        raise Unavailable(f"the upload was not stored: {exc}", STORE_RETRY_AFTER_S) from exc
    limit = IdleLimit(settings.upload_idle_timeout_s, settings.upload_idle_min_bytes)
    try:
        return await store_body(request.receive, writer, limit)
    except BlobStoreUnavailable as exc:
        await run_in_threadpool(_abort_quietly, writer)
        raise Unavailable(f"the upload was not stored: {exc}", STORE_RETRY_AFTER_S) from exc
    except UploadTooLarge as exc:
        writer.abort()
        raise TooLarge(str(exc)) from exc
    except CorruptCompression as exc:
        writer.abort()
        raise Invalid(str(exc)) from exc
    except UploadStalled as exc:
        writer.abort()
        # The rest of the body is never read, so the connection cannot carry another request.
        raise HTTPException(
            status.HTTP_408_REQUEST_TIMEOUT, str(exc), headers={"Connection": "close"}
        ) from exc
    except BaseException:
        writer.abort()
        raise


def _abort_quietly(writer: BlobUpload) -> None:
    """Drop a failed upload's leftovers; the store being away, the periodic sweep finishes the job."""
    try:
        writer.abort()
    except OSError as exc:
        log.info("an unfinished upload stays for the sweep: %s", exc)


def _record_and_queue(
    request: Request, incident_id: int, upload: UploadInfo, blob: StoredBlob
) -> tuple[CaptureOut, bool]:
    """The capture row for a stored upload, and its parse message; a blob no row took is removed.

    False with the capture when a try of the same upload (its key) recorded it meanwhile."""
    factory = get_session_factory(database_url(get_settings()))
    try:
        with factory() as session:
            capture = service.record_upload(session, incident_id, upload, blob)
            detail = {"filename": upload.filename, "host": upload.host, "bytes": blob.size_bytes}
            audit.record_request(request, session, "create", "capture", capture.id, incident_id, detail)
            session.commit()
            out = service.get_capture(session, capture.id)
    except IntegrityError as exc:
        blob_store().discard_new(blob)
        earlier = _earlier_try(incident_id, upload.upload_key) if upload.upload_key else None
        if earlier is None:
            raise
        log.info(
            "upload key %r: recorded by a concurrent try as capture %s (%s)",
            upload.upload_key,
            earlier.id,
            exc,
        )
        return earlier, False
    except BaseException:
        blob_store().discard_new(blob)
        raise
    send_parse(capture.id, capture.parse_attempt)
    return out, True


def _require_incident(principal: Principal, incident_id: int, upload: UploadInfo) -> None:
    with get_session_factory(database_url(get_settings()))() as session:
        require_upload_scope(principal, incident_id, upload.host)
        access.require_incident(session, principal, incident_id)
        require_incident(session, incident_id)


def _json_param(name: str, raw: str | None) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise Invalid(f"{name} must be a JSON object: {exc}") from exc
    if not isinstance(value, dict):
        raise Invalid(f"{name} must be a JSON object")
    where = first_unstorable(value, name)
    if where is not None:
        raise Invalid(f"{where} contains a NUL character or an unpaired surrogate, which cannot be stored")
    return value


def upload_info(
    filename: Annotated[SingleLine, Query(description="The file's name, shown in the UI")],
    host: Annotated[SingleLine | None, Query(description="Host the capture was taken on")] = None,
    format: Annotated[
        SingleLine | None, Query(description="Skip content detection, e.g. perf-script")
    ] = None,
    kind: Annotated[
        SingleLine | None, Query(description="cpu, offcpu, syscalls, faults, proc, snapshot…")
    ] = None,
    clock: Annotated[str | None, Query(description="Clock anchors as JSON (see the README)")] = None,
    offset: Annotated[SingleLine | None, Query(description="Capture clock to UTC offset, '+12.5s'")] = None,
    meta: Annotated[str | None, Query(description="Collector metadata, JSON")] = None,
    start: Annotated[
        SingleLine | None,
        Query(description="Wall-clock start (ISO 8601) for a capture nothing else aligns"),
    ] = None,
    time_column: Annotated[
        SingleLine | None,
        Query(description="The column (or JSON key) holding the time, for CSV and JSON-lines files"),
    ] = None,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="The same on every try of one upload: a repeat answers 200 with the capture "
            "the first try made, and stores nothing",
        ),
    ] = None,
) -> UploadInfo:
    """The upload's description, checked before a byte of the body is read or stored."""
    clock_info = _json_param("clock", clock)
    if offset:
        try:
            clock_info["offset_ns_given"] = parse_duration_ns(offset)
        except ValueError as exc:
            raise Invalid(str(exc)) from exc
    if start and start.strip():
        try:
            clock_info[START_GIVEN_KEY] = parse_wall_clock_ns(start)
        except ValueError as exc:
            raise Invalid(f"start: {exc}") from exc
    if time_column and time_column.strip():
        clock_info[TIME_COLUMN_KEY] = time_column.strip()
    return UploadInfo(
        filename=service.clean_filename(filename),
        host=host,
        format=format,
        kind=kind,
        clock=clock_info,
        meta=_json_param("meta", meta),
        upload_key=_upload_key(idempotency_key),
    )


def _upload_key(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    key = value.strip()
    if len(key) > UPLOAD_KEY_MAX or not key.isascii() or not key.isprintable():
        raise Invalid(f"Idempotency-Key: up to {UPLOAD_KEY_MAX} printable ASCII characters, e.g. a UUID")
    return key


UploadDep = Annotated[UploadInfo, Depends(upload_info)]
UPLOAD_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {
        "model": CaptureOut,
        "description": "A repeat of an Idempotency-Key: the capture its first try made",
    },
    429: {"description": "This credential sent too many uploads: send it again after Retry-After seconds"},
    503: {"description": "Too many uploads at once, or the blob store is away: again after Retry-After"},
}
BINARY_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}


@router.post(
    "/api/incidents/{incident_id}/captures",
    status_code=status.HTTP_202_ACCEPTED,
    openapi_extra=BINARY_BODY,
    responses=UPLOAD_ANSWERS,
    dependencies=[UPLOAD, SEE_INCIDENT],
)
async def upload_capture(
    incident_id: int,
    request: Request,
    response: Response,
    upload: UploadDep,
    principal: Uploader,
    _: UploadSlot,
) -> CaptureOut:
    """Store the raw body (plain, gzip or zstd) and queue it for parsing; returns at once."""
    await run_in_threadpool(_require_incident, principal, incident_id, upload)  # before a byte is stored
    return await _take_upload(request, response, incident_id, upload)


@router.post(
    "/api/collector/captures",
    status_code=status.HTTP_202_ACCEPTED,
    openapi_extra=BINARY_BODY,
    responses=UPLOAD_ANSWERS,
    dependencies=[UPLOAD],
)
async def collector_upload(
    request: Request,
    response: Response,
    upload: UploadDep,
    principal: Uploader,
    _: UploadSlot,
    incident: Annotated[int | None, Query(description="Incident id (or watch=true)")] = None,
    watch: Annotated[
        bool, Query(description="Send to the host's watch stream (made at its first upload) instead")
    ] = False,
) -> CaptureOut:
    """The collectors' upload: the UI's, with the incident as a parameter (a collector token may be
    limited to one incident and one host), or to the host's watch stream (`stallscope-collect
    watch`); credentials are checked before the body is read."""
    if (incident is None) == (not watch):
        raise Invalid("name either incident=ID or watch=true: one place to put the capture")
    if incident is None:
        incident = await run_in_threadpool(_watch_stream, principal, upload)
    await run_in_threadpool(_require_incident, principal, incident, upload)
    return await _take_upload(request, response, incident, upload)


async def _take_upload(
    request: Request, response: Response, incident_id: int, upload: UploadInfo
) -> CaptureOut:
    """Store and record the upload, unless an earlier try with its key did (then 200 and that capture)."""
    if upload.upload_key is not None:
        earlier = await run_in_threadpool(_earlier_try, incident_id, upload.upload_key)
        if earlier is not None:
            response.status_code = status.HTTP_200_OK
            return earlier
    blob = await _store_body(request)
    capture, created = await run_in_threadpool(_record_and_queue, request, incident_id, upload, blob)
    if not created:
        response.status_code = status.HTTP_200_OK
    return capture


def _earlier_try(incident_id: int, upload_key: str) -> CaptureOut | None:
    with get_session_factory(database_url(get_settings()))() as session:
        return service.earlier_upload(session, incident_id, upload_key)


def _watch_stream(principal: Principal, upload: UploadInfo) -> int:
    """The host's watch stream's incident id (made and committed at the host's first upload)."""
    if principal.incident_id is not None:
        limited = f"{principal.describe()} uploads to incident {principal.incident_id} only"
        raise Forbidden(f"{limited}, not to a watch stream")
    with get_session_factory(database_url(get_settings()))() as session:
        stream = stream_for(session, upload.host)
        session.commit()
        return stream.id


@router.post(
    "/api/captures/{capture_id}/shift",
    status_code=status.HTTP_202_ACCEPTED,
    dependencies=[RESPOND, SEE_CAPTURE],
)
def shift_capture(capture_id: int, data: ShiftRequest, session: SessionDep, request: Request) -> CaptureOut:
    """Move the capture on the wall-clock axis; every record is re-timed from the stored upload."""
    capture = service.set_shift(session, capture_id, data.shift)
    audit.record_request(
        request, session, "change", "capture", capture_id, capture.incident_id, {"shift": data.shift}
    )
    session.commit()
    send_parse(capture_id, capture.parse_attempt)
    return service.get_capture(session, capture_id)


@router.post(
    "/api/captures/{capture_id}/start",
    status_code=status.HTTP_202_ACCEPTED,
    dependencies=[RESPOND, SEE_CAPTURE],
)
def set_capture_start(
    capture_id: int, data: StartRequest, session: SessionDep, request: Request
) -> CaptureOut:
    """Place an unaligned capture on the wall clock: its first record at the start given."""
    capture = service.set_start(session, capture_id, data.start)
    start = {"start": str(data.start)}
    audit.record_request(request, session, "change", "capture", capture_id, capture.incident_id, start)
    session.commit()
    send_parse(capture_id, capture.parse_attempt)
    return service.get_capture(session, capture_id)


@router.get("/api/captures/{capture_id}", dependencies=[READ, SEE_CAPTURE])
def get_capture(capture_id: int, session: SessionDep) -> CaptureOut:
    return service.get_capture(session, capture_id)


@router.post(
    "/api/captures/{capture_id}/reparse",
    status_code=status.HTTP_202_ACCEPTED,
    dependencies=[RESPOND, SEE_CAPTURE],
)
def reparse_capture(capture_id: int, session: SessionDep) -> CaptureOut:
    """Parse the stored upload again; the new samples replace the old ones atomically."""
    capture = service.mark_requeued(session, capture_id)
    session.commit()
    send_parse(capture_id, capture.parse_attempt)
    return service.get_capture(session, capture_id)


@router.get("/api/captures/{capture_id}/documents", dependencies=[READ, SEE_CAPTURE])
def capture_documents(capture_id: int, session: SessionDep) -> list[DocumentOut]:
    """Documents kept whole, such as the collector's system snapshot."""
    service.require_capture(session, capture_id)
    return [
        DocumentOut(kind=kind, content=content) for kind, content in repository.documents(session, capture_id)
    ]


@router.get(
    "/api/captures/{capture_id}/raw",
    response_class=StreamingResponse,
    dependencies=[RESPOND, SEE_CAPTURE],
    responses={200: {"content": {"application/octet-stream": {}}}},
)
def download_raw(capture_id: int, session: SessionDep, request: Request) -> StreamingResponse:
    """The upload as it was sent (an export: in the audit log)."""
    capture = service.require_capture(session, capture_id)
    audit.record_request(
        request, session, "export", "capture", capture_id, capture.incident_id, {"raw": True}
    )
    session.commit()
    name = download_name(capture.filename, f"capture-{capture.id}")
    try:
        raw = blob_store().open(capture.sha256)
    except FileNotFoundError as exc:
        raise NotFound(f"capture {capture_id}: its stored upload is missing from the blob store") from exc
    except BlobStoreUnavailable as exc:
        raise Unavailable(str(exc), STORE_RETRY_AFTER_S) from exc
    return StreamingResponse(
        _chunks_of(raw),
        media_type="application/octet-stream",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Content-Length": str(capture.size_bytes),
        },
    )


def _chunks_of(raw: BinaryIO) -> Iterator[bytes]:
    """The stored bytes in pieces (Starlette reads a sync iterator in its thread pool)."""
    with raw:
        while chunk := raw.read(RAW_CHUNK_BYTES):
            yield chunk
