"""HTTP routes for the postmortem: the incident written up as Markdown, HTML, or both with images.

Responders and admins only (`RESPOND`): building one makes short links, a write, and a viewer may
not write; `roles.py` lists exporting under the same permission.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response

from stallscope.auth import audit
from stallscope.auth.guard import RESPOND
from stallscope.auth.scope import SEE_INCIDENT, principal_of
from stallscope.deps import SessionDep
from stallscope.postmortem.archive import postmortem_zip
from stallscope.postmortem.model import Postmortem
from stallscope.postmortem.service import build_postmortem

router = APIRouter(tags=["postmortem"])

Format = Literal["md", "html", "zip"]
MEDIA_TYPES: dict[Format, str] = {
    "md": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "zip": "application/zip",
}


def _file(fmt: Format) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answer of a download route: its file's media type, not JSON."""
    return {200: {"content": {MEDIA_TYPES[fmt].split(";")[0]: {}}, "description": "The file"}}


def _download(incident_id: int, fmt: Format, session: SessionDep, request: Request) -> Response:
    postmortem: Postmortem = build_postmortem(
        session, incident_id, base_url=str(request.base_url), principal=principal_of(request)
    )
    audit.record_request(request, session, "export", "postmortem", incident_id, incident_id, {"format": fmt})
    session.commit()
    if fmt == "md":
        body = postmortem.markdown.encode("utf-8")
    elif fmt == "html":
        body = postmortem.html.encode("utf-8")
    else:
        body = postmortem_zip(postmortem)
    name = f"incident-{incident_id}-postmortem.{fmt}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(body, media_type=MEDIA_TYPES[fmt], headers=headers)


@router.get(
    "/api/incidents/{incident_id}/postmortem.md",
    dependencies=[RESPOND, SEE_INCIDENT],
    response_class=Response,
    responses=_file("md"),
)
def postmortem_markdown(incident_id: int, session: SessionDep, request: Request) -> Response:
    """The postmortem as Markdown; its images are `images/<name>` (in the zip)."""
    return _download(incident_id, "md", session, request)


@router.get(
    "/api/incidents/{incident_id}/postmortem.html",
    dependencies=[RESPOND, SEE_INCIDENT],
    response_class=Response,
    responses=_file("html"),
)
def postmortem_html(incident_id: int, session: SessionDep, request: Request) -> Response:
    """The postmortem as one self-contained HTML page, its images inline."""
    return _download(incident_id, "html", session, request)


@router.get(
    "/api/incidents/{incident_id}/postmortem.zip",
    dependencies=[RESPOND, SEE_INCIDENT],
    response_class=Response,
    responses=_file("zip"),
)
def postmortem_archive(incident_id: int, session: SessionDep, request: Request) -> Response:
    """`postmortem.md`, `postmortem.html` and `images/*.svg` in one zip."""
    return _download(incident_id, "zip", session, request)
