"""One upload: a POST of a spooled body to the console's collector endpoint."""

from __future__ import annotations

import email.utils
import http.client
import json
import math
import os
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import timezone
from typing import IO, Any, Callable

from stallscope_collect import COLLECTOR
from stallscope_collect.console import Console
from stallscope_collect.formatting import fmt_bytes


class ProgressReader:
    """A file-like request body that reports how much of it has been sent."""

    def __init__(self, f: IO[bytes], size: int, report: Callable[[int, int], None]) -> None:
        self.f = f
        self.size = size
        self.sent = 0
        self.report = report

    def read(self, n: int = -1) -> bytes:
        chunk = self.f.read(n if n and n > 0 else 1 << 16)
        self.sent += len(chunk)
        self.report(self.sent, self.size)
        return chunk


@dataclass
class Attempt:
    """What came of a POST: accepted, worth retrying or not, and the wait the console asked for."""

    ok: bool
    retryable: bool
    message: str
    status: int | None = None
    response: dict[str, Any] | None = None
    retry_after: float | None = None


def capture_url(server: str, info: dict[str, Any]) -> str:
    """The upload URL of a spooled capture: to its incident, or to its host's watch stream (`watch`)."""
    target = ("watch", "true") if info.get("watch") else ("incident", str(info["incident"]))
    query: list[tuple[str, str]] = [
        target,
        ("filename", str(info["filename"])),
        ("host", str(info["host"])),
        ("kind", str(info["kind"])),
    ]
    if info.get("clock") is not None:
        query.append(("clock", json.dumps(info["clock"], separators=(",", ":"))))
    query.append(("meta", json.dumps(info.get("meta") or {}, separators=(",", ":"))))
    return server.rstrip("/") + "/api/collector/captures?" + urllib.parse.urlencode(query)


def _detail(body: bytes) -> str:
    try:
        parsed = json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        return body.decode("utf-8", "replace").strip()[:300] or "(no body)"
    if isinstance(parsed, dict) and "detail" in parsed:
        detail = parsed["detail"]
        return detail if isinstance(detail, str) else json.dumps(detail)[:500]
    return json.dumps(parsed)[:300]


def post_once(
    url: str, body_path: str, token: str, key: str, timeout: float, console: Console, label: str
) -> Attempt:
    """One POST of a spooled body under its idempotency key; what came of it."""
    size = os.path.getsize(body_path)
    started = time.monotonic()
    shown = [started]

    def report(sent: int, total: int) -> None:
        now = time.monotonic()
        if total > 0 and now - started > 0.5 and now - shown[0] >= 0.1:
            shown[0] = now
            console.status(f"uploading {label}: {100 * sent // total}% of {fmt_bytes(total)}")

    headers = {
        "Authorization": "Bearer " + token,
        "Content-Type": "application/octet-stream",
        "Content-Length": str(size),
        "User-Agent": COLLECTOR,
        "Accept": "application/json",
        "X-Requested-With": COLLECTOR,
        "Idempotency-Key": key,
    }
    try:
        with open(body_path, "rb") as f:
            request = urllib.request.Request(
                url, data=ProgressReader(f, size, report), headers=headers, method="POST"
            )
            with _OPENER.open(request, timeout=timeout) as response:
                status = response.status
                text = response.read(1 << 20)
    except urllib.error.HTTPError as exc:
        status = exc.code
        detail = _detail(exc.read(1 << 16))
        if 300 <= status < 400:
            where = exc.headers.get("Location") if exc.headers else None
            detail = f"the server redirects to {where}; pass that as --server"
        retry_after = parse_retry_after(exc.headers.get("Retry-After") if exc.headers else None)
        retryable = status >= 500 or status in (408, 429)
        return Attempt(False, retryable, f"HTTP {status}: {detail}", status, None, retry_after)
    except socket.timeout:
        # The console may have taken the body and be slow to answer: the retry repeats the key.
        netloc = urllib.parse.urlsplit(url).netloc
        return Attempt(False, True, f"no answer from {netloc} within {timeout:g} s")
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return Attempt(False, True, f"cannot reach {urllib.parse.urlsplit(url).netloc}: {reason}")
    try:
        parsed = json.loads(text.decode("utf-8", "replace")) if text else {}
    except ValueError:
        parsed = {}
    response_obj = parsed if isinstance(parsed, dict) else {}
    if 200 <= status < 300:
        return Attempt(True, False, f"HTTP {status}", status, response_obj)
    return Attempt(False, status >= 500, f"HTTP {status}: {_detail(text)}", status)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirected POST would be replayed as a GET without its body: report it instead."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def parse_retry_after(value: str | None, now_s: float | None = None) -> float | None:
    """A Retry-After header in seconds from now, given as seconds or as an HTTP date; None when
    absent or unreadable. Not capped here: the sender decides how long it is willing to wait."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return _seconds_until(value, time.time() if now_s is None else now_s)
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _seconds_until(http_date: str, now_s: float) -> float | None:
    """Seconds from `now_s` to an HTTP date (0 when it has passed); None when it is no date."""
    try:
        when = email.utils.parsedate_to_datetime(http_date.strip())
    except (TypeError, ValueError, IndexError):  # Python < 3.10 raises TypeError on garbage
        return None
    if when.tzinfo is None:  # asctime's form, or `-0000`: HTTP dates are in GMT
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - now_s)


def backoff_delay(attempt: int, base: float, cap: float = 30.0) -> float:
    """Exponential backoff with jitter: between half and all of base * 2**attempt, capped."""
    full = min(cap, base * (2**attempt))
    return random.uniform(full / 2, full)
