"""HTTP routes for captures: streaming upload, status, re-parse, raw download."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse

from stallscope.captures import service
from stallscope.captures.schemas import CaptureOut
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.deps import SessionDep, database_url
from stallscope.kit.blobstore import BlobWriter, CorruptCompression, StoredBlob, UploadTooLarge
from stallscope.kit.errors import Invalid, TooLarge
from stallscope.worker import enqueue

router = APIRouter(tags=["captures"])

PARSE_TASK = "captures.parse"


@router.get("/api/incidents/{incident_id}/captures")
def list_captures(incident_id: int, session: SessionDep) -> list[CaptureOut]:
    return service.list_captures(session, incident_id)


async def _store_body(request: Request) -> StoredBlob:
    settings = get_settings()
    writer = BlobWriter(settings.blob_dir, settings.max_upload_bytes)
    try:
        async for chunk in request.stream():
            writer.write(chunk)
        return writer.commit()
    except UploadTooLarge as exc:
        writer.abort()
        raise TooLarge(str(exc)) from exc
    except CorruptCompression as exc:
        writer.abort()
        raise Invalid(str(exc)) from exc
    except BaseException:
        writer.abort()
        raise


def _record_and_queue(
    incident_id: int, filename: str, host: str | None, forced_format: str | None, blob: StoredBlob
) -> CaptureOut:
    factory = get_session_factory(database_url(get_settings()))
    with factory() as session:
        capture = service.record_upload(session, incident_id, filename, host, forced_format, blob)
        session.commit()
        out = service.get_capture(session, capture.id)
    enqueue(PARSE_TASK, capture.id)
    return out


@router.post(
    "/api/incidents/{incident_id}/captures",
    status_code=status.HTTP_202_ACCEPTED,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
        }
    },
)
async def upload_capture(
    incident_id: int,
    request: Request,
    filename: str = Query(description="The file's name, shown in the UI"),
    host: str | None = Query(default=None, description="Host the capture was taken on"),
    format: str | None = Query(default=None, description="Override content detection, e.g. perf-script"),
) -> CaptureOut:
    """Store the raw body (plain, gzip or zstd) and queue it for parsing; returns at once."""
    blob = await _store_body(request)
    return await run_in_threadpool(_record_and_queue, incident_id, filename, host, format, blob)


@router.get("/api/captures/{capture_id}")
def get_capture(capture_id: int, session: SessionDep) -> CaptureOut:
    return service.get_capture(session, capture_id)


@router.post("/api/captures/{capture_id}/reparse", status_code=status.HTTP_202_ACCEPTED)
def reparse_capture(capture_id: int, session: SessionDep) -> CaptureOut:
    """Parse the stored upload again; the new samples replace the old ones atomically."""
    service.mark_requeued(session, capture_id)
    session.commit()
    enqueue(PARSE_TASK, capture_id)
    return service.get_capture(session, capture_id)


@router.get("/api/captures/{capture_id}/raw", response_class=FileResponse)
def download_raw(capture_id: int, session: SessionDep) -> FileResponse:
    capture = service.require_capture(session, capture_id)
    return FileResponse(capture.blob_path, filename=capture.filename, media_type="application/octet-stream")
