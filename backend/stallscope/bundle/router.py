"""HTTP routes for bundles: preview the redaction, export an incident, import a bundle."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Annotated

from fastapi import APIRouter, Query, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from sqlalchemy.orm import Session
from starlette.background import BackgroundTask

from stallscope.auth import audit
from stallscope.auth.guard import EXPORT, RESPOND, Exporter, Responder
from stallscope.auth.scope import SEE_INCIDENT
from stallscope.blobs.configured import blob_store
from stallscope.bundle import importer, service
from stallscope.bundle.preview import preview
from stallscope.bundle.schemas import BundleImportOut, BundleRequest, ImportedCaptureOut, RedactionPreviewOut
from stallscope.captures.parse_queue import send_parse
from stallscope.captures.router import BINARY_BODY
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.deps import database_url
from stallscope.kit.errors import Invalid, TooLarge
from stallscope.kit.text import SingleLine

router = APIRouter(tags=["bundles"])


def _spool_file() -> IO[bytes]:
    return tempfile.NamedTemporaryFile(prefix="stallscope-import-", suffix=".zip", delete=False)


def _write(target: IO[bytes], chunk: bytes) -> None:
    target.write(chunk)


def _sessions() -> Callable[[], Session]:
    return get_session_factory(database_url(get_settings()))


@router.post("/api/incidents/{incident_id}/bundle/preview", dependencies=[EXPORT, SEE_INCIDENT])
def preview_redaction(incident_id: int, body: BundleRequest, principal: Exporter) -> RedactionPreviewOut:
    """Each redaction rule, its matches in what the bundle would hold, with examples in context."""
    with _sessions()() as session:
        return preview(session, incident_id, service.allowed_request(body, principal), principal)


@router.post(
    "/api/incidents/{incident_id}/bundle",
    dependencies=[EXPORT, SEE_INCIDENT],
    response_class=FileResponse,
    responses={200: {"content": {"application/zip": {}}, "description": "The bundle"}},
)
async def export_bundle(
    incident_id: int, body: BundleRequest, request: Request, principal: Exporter
) -> FileResponse:
    """The incident (or the part asked for) as one zip: offline views, data, findings, redacted.

    A guest whose link allows it gets the bundle of what the link shows: its captures, the views it
    opens (asked with the guest's own credentials), no raw captures and no postmortem."""
    body = service.allowed_request(body, principal)
    base_url = str(request.base_url).rstrip("/")
    path = await service.export(
        request.app, request.headers, principal, base_url, _sessions(), incident_id, body
    )

    def _audit() -> None:
        with _sessions()() as session:
            detail = {"redaction": body.redaction.mode, "raw": body.raw, "bytes": path.stat().st_size}
            audit.record_request(request, session, "export", "incident", incident_id, incident_id, detail)
            session.commit()

    await run_in_threadpool(_audit)
    return FileResponse(
        path,
        media_type="application/zip",
        filename=f"stallscope-incident-{incident_id}.zip",
        background=BackgroundTask(path.unlink, missing_ok=True),
    )


@router.post(
    "/api/bundles",
    status_code=status.HTTP_201_CREATED,
    openapi_extra=BINARY_BODY,
    dependencies=[RESPOND],
)
async def import_bundle(
    request: Request,
    principal: Responder,
    filename: Annotated[SingleLine, Query(description="The bundle's file name, for messages")] = "bundle.zip",
) -> BundleImportOut:
    """A bundle as a new incident; each capture is parsed again from its stored records."""
    settings = get_settings()
    spool = await run_in_threadpool(_spool_file)
    path = Path(spool.name)
    try:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > settings.max_upload_bytes:
                raise TooLarge(
                    f"{filename}: larger than the upload limit ({settings.max_upload_bytes:,} bytes)"
                )
            await run_in_threadpool(_write, spool, chunk)
        await run_in_threadpool(spool.close)
        if size == 0:
            raise Invalid(f"{filename}: the body is empty: send the bundle's bytes")

        def _import() -> importer.ImportResult:
            with _sessions()() as session:
                result = importer.import_bundle(
                    session, path, filename, principal.user_id, blob_store(), settings.max_upload_bytes
                )
                detail = {"filename": filename, "captures": len(result.captures)}
                audit.record_request(
                    request, session, "import", "incident", result.incident_id, result.incident_id, detail
                )
                session.commit()
                return result

        result = await run_in_threadpool(_import)
    finally:
        spool.close()
        path.unlink(missing_ok=True)
    for capture in result.captures:
        send_parse(capture.capture_id, capture.parse_attempt)
    return BundleImportOut(
        incident_id=result.incident_id,
        captures=[
            ImportedCaptureOut(id=c.capture_id, filename=c.filename, host=c.host) for c in result.captures
        ],
        skipped=result.skipped,
    )
