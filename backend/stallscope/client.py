"""A small HTTP client for the console's API, used by `stallscope upload` and `reparse`.

Credentials come from `STALLSCOPE_TOKEN`: a personal API token (the Account page, or `stallscope
user token NAME`) or a collector token (uploads only)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

CHUNK_BYTES = 1 << 20
TERMINAL_STATES = {"ready", "partial", "empty", "failed"}


class ApiError(Exception):
    pass


CLIENT_MARK = {"X-Requested-With": "stallscope-cli"}
"""Marks writes as the CLI's own: the console refuses writes another web site could have sent."""
TOKEN_VARIABLE = "STALLSCOPE_TOKEN"


def client_headers() -> dict[str, str]:
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    return CLIENT_MARK | ({"Authorization": f"Bearer {token}"} if token else {})


def check_answer(response: httpx.Response) -> Any:
    """The JSON of a 2xx answer; otherwise an ApiError that says the console's reason first, then the
    status and the request it answered."""
    if response.status_code >= 400:
        hint = ""
        if response.status_code == 401 and not os.environ.get(TOKEN_VARIABLE):
            hint = (
                f"; set {TOKEN_VARIABLE} to an API token (the Account page, or `stallscope user token NAME`)"
            )
        request = response.request
        raise ApiError(
            f"{_reason(response)} (the console answered {response.status_code} to {request.method} "
            f"{request.url.path}){hint}"
        )
    return response.json()


def _reason(response: httpx.Response) -> str:
    """The `detail` of an error answer as a sentence; a list of invalid fields as `field: problem`."""
    try:
        detail = response.json().get("detail", response.text)
    except (ValueError, AttributeError):
        detail = response.text
    if isinstance(detail, list):
        problems = []
        for item in detail:
            if isinstance(item, dict):
                where = ".".join(str(part) for part in item.get("loc", []) if part not in ("query", "body"))
                problems.append(f"{where}: {item.get('msg', item)}" if where else str(item.get("msg", item)))
            else:
                problems.append(str(item))
        return "; ".join(problems)
    return str(detail).strip() or response.reason_phrase


def require_incident(server: str, incident_id: int) -> None:
    """Fail before a byte of a capture is sent when the incident is not there: the upload would send
    the whole file (gigabytes, perhaps) before hearing so.

    One GET with the upload's credentials. An upload-only token may not read incidents (403): then
    the upload itself is the check, and the console refuses it before storing anything."""
    with httpx.Client(base_url=server, headers=client_headers(), timeout=60.0) as client:
        response = client.get(f"/api/incidents/{incident_id}")
    if response.status_code == 404:
        raise ApiError(
            f"incident {incident_id} does not exist on {server} (or these credentials may not see it); "
            "nothing was uploaded. The incident's id is the number in its page's address (/incidents/ID)."
        )
    if response.status_code != 403:
        check_answer(response)


def _file_chunks(path: Path, show_progress: bool) -> Iterator[bytes]:
    total = path.stat().st_size
    sent = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            sent += len(chunk)
            if show_progress:
                sys.stderr.write(f"\r  {path.name}: {sent * 100 // max(total, 1):3d}% of {total:,} bytes")
                sys.stderr.flush()
            yield chunk
    if show_progress:
        sys.stderr.write("\n")


def upload(
    server: str,
    incident_id: int,
    path: Path,
    host: str | None,
    fmt: str | None,
    show_progress: bool,
    *,
    time_column: str | None = None,
    kind: str | None = None,
    start: str | None = None,
) -> dict[str, Any]:
    given = {"host": host, "format": fmt, "time_column": time_column, "kind": kind, "start": start}
    params = {"filename": path.name} | {name: value for name, value in given.items() if value}
    with httpx.Client(
        base_url=server, headers=client_headers(), timeout=httpx.Timeout(60.0, read=600.0)
    ) as client:
        response = client.post(
            f"/api/incidents/{incident_id}/captures",
            params=params,
            content=_file_chunks(path, show_progress),
            headers={"Content-Type": "application/octet-stream"},
        )
        result: dict[str, Any] = check_answer(response)
        return result


def reparse(server: str, capture_id: int) -> dict[str, Any]:
    with httpx.Client(base_url=server, headers=client_headers(), timeout=60.0) as client:
        result: dict[str, Any] = check_answer(client.post(f"/api/captures/{capture_id}/reparse"))
        return result


def wait_parsed(server: str, capture_id: int, show_progress: bool, timeout_s: float = 3600) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    with httpx.Client(base_url=server, headers=client_headers(), timeout=60.0) as client:
        while True:
            capture: dict[str, Any] = check_answer(client.get(f"/api/captures/{capture_id}"))
            if show_progress:
                sys.stderr.write(f"\r  capture {capture_id}: {capture['status']} {capture['progress']:.0%}  ")
                sys.stderr.flush()
            if capture["status"] in TERMINAL_STATES or time.monotonic() > deadline:
                if show_progress:
                    sys.stderr.write("\n")
                return capture
            time.sleep(0.5)
