"""Sending spooled captures: retries (as the console asks, or backoff), one sender per spool, the token."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import threading
import time
from dataclasses import dataclass
from typing import Sequence

from stallscope_collect.console import Console
from stallscope_collect.files import size_or_zero
from stallscope_collect.formatting import describe, fmt_bytes
from stallscope_collect.upload.client import Attempt, backoff_delay, capture_url, post_once
from stallscope_collect.upload.spool import Spool, SpoolEntry

RETRY_AFTER_MAX_S = 300.0
"""The longest wait a console's Retry-After gets. A longer one (or an HTTP date from a clock far
off) would hold a record or a watch round up for longer than anyone waits for it; if the retry is
refused again, the capture stays in the spool for the next run or `flush`."""


@dataclass
class UploadSettings:
    token: str | None
    retries: int = 5
    retry_delay: float = 1.0
    timeout: float = 120.0
    server_override: str | None = None
    stop: threading.Event | None = None
    """Set by a stop signal (watch): a wait before a retry ends at once and the capture stays spooled,
    so that a long Retry-After cannot outlast the service manager's patience."""


def send_entry(spool: Spool, entry: SpoolEntry, settings: UploadSettings, console: Console) -> Attempt:
    """Send one spooled capture under its idempotency key, retrying what may pass later (connection
    errors, timeouts, 408, 429, 5xx); removed from the spool once the console has it."""
    server = settings.server_override or entry.info.get("server")
    if not server:
        return Attempt(False, False, f"no server for {entry.label}: pass --server")
    if not settings.token:
        return Attempt(False, False, "no upload token: set STALLSCOPE_TOKEN or pass --token-file")
    try:
        key = spool.upload_key(entry)
    except OSError as exc:
        # Sent without a key it can repeat, a capture whose answer is lost would arrive twice.
        return Attempt(False, False, f"cannot write the upload key of {entry.label}: {describe(exc)}")
    url = capture_url(str(server), entry.info)
    result, posts = _post_with_retries(url, entry, key, settings.token, settings, console)
    if result.ok:
        _accepted(spool, entry, result, console)
    else:
        _note_failure(spool, entry, result, posts)
    return result


def _post_with_retries(
    url: str, entry: SpoolEntry, key: str, token: str, settings: UploadSettings, console: Console
) -> tuple[Attempt, int]:
    """POST until accepted, refused for good, out of retries or stopped; (the last answer, POSTs made)."""
    result = post_once(url, entry.body_path, token, key, settings.timeout, console, entry.label)
    posts = 1
    while not result.ok and result.retryable and posts <= settings.retries:
        delay, note = retry_wait(result, posts - 1, settings.retry_delay)
        console.info(
            f"upload of {entry.label} failed ({result.message}); "
            f"retry {posts} of {settings.retries} in {delay:.1f} s{note}"
        )
        if not _wait(delay, settings.stop):
            break
        result = post_once(url, entry.body_path, token, key, settings.timeout, console, entry.label)
        posts += 1
    return result, posts


def retry_wait(result: Attempt, attempt: int, base_delay: float) -> tuple[float, str]:
    """How long to wait before retry `attempt + 1`, and a note for the log when the console's wait
    was cut to RETRY_AFTER_MAX_S. A Retry-After is followed (the console knows its limits), plus a
    little jitter so that collectors refused together do not all come back together; without one,
    exponential backoff with jitter."""
    asked = result.retry_after
    if asked is None:
        return backoff_delay(attempt, base_delay), ""
    delay = min(asked + random.uniform(0, min(1.0, asked / 10)), RETRY_AFTER_MAX_S)
    if asked <= RETRY_AFTER_MAX_S:
        return delay, ""
    return delay, f" (the console asked for {asked:.0f} s; waiting {RETRY_AFTER_MAX_S:.0f} s at most)"


def _wait(delay: float, stop: threading.Event | None) -> bool:
    """Sleep before a retry; False when a stop signal came (before or during it)."""
    if stop is None:
        time.sleep(delay)
        return True
    return not stop.wait(delay)


def _accepted(spool: Spool, entry: SpoolEntry, result: Attempt, console: Console) -> None:
    """Out of the spool, and said. A 200 is the console recognising the key: it had the capture
    already (an earlier answer was lost) and stored nothing new."""
    size = fmt_bytes(size_or_zero(entry.body_path))  # before removal, which deletes the body
    spool.remove(entry)
    capture = result.response or {}
    repeat = " (the console already had it)" if result.status == 200 else ""
    console.status(
        f"uploaded {entry.label} ({size}): capture {capture.get('id', '?')} {capture.get('status', '')}"
        + repeat,
        final=True,
    )
    console.reset_pace()


def _note_failure(spool: Spool, entry: SpoolEntry, result: Attempt, posts: int) -> None:
    """The sidecar keeps the count of POSTs and the last error, for `flush` and for whoever looks."""
    entry.info["attempts"] = int(entry.info.get("attempts", 0)) + posts
    entry.info["last_error"] = result.message
    with contextlib.suppress(OSError):
        spool.update(entry)


def send_all(
    spool: Spool,
    entries: Sequence[SpoolEntry],
    settings: UploadSettings,
    console: Console,
    blocking: bool = True,
) -> tuple[int, int]:
    """Send entries in order; stop early when the server is unreachable. Returns (sent, left)."""
    if not entries:
        return 0, 0
    lock = spool.lock(blocking)
    if lock is None:
        console.warn(f"another stallscope-collect is sending from {spool.path}; leaving it to that one")
        return 0, len(entries)
    sent = 0
    try:
        for entry in entries:
            if not os.path.exists(entry.sidecar_path):
                continue  # sent by someone else meanwhile
            result = send_entry(spool, entry, settings, console)
            if result.ok:
                sent += 1
                continue
            where = settings.server_override or entry.info.get("server")
            console.error(f"{entry.label} was not uploaded to {where}: {result.message}")
            if result.retryable or not settings.token:
                # The server is unreachable or we cannot authenticate: the rest would fail the same way.
                console.info(f"kept in the spool ({spool.path}): `stallscope-collect flush` sends it later")
                return sent, len(entries) - sent
    finally:
        lock.close()
    return sent, len(entries) - sent


def resolve_token(token_file: str | None, console: Console) -> str | None:
    if token_file:
        try:
            st = os.stat(token_file)
            if st.st_mode & 0o077:
                console.warn(f"{token_file} is readable by other users; `chmod 600` it")
            with open(token_file, encoding="utf-8") as f:
                token = f.readline().strip()
        except OSError as exc:
            console.error(f"cannot read the token file: {describe(exc)}")
            return None
        return token or None
    token = os.environ.get("STALLSCOPE_TOKEN", "").strip()
    return token or None


def upload_settings(args: argparse.Namespace, console: Console) -> UploadSettings:
    """The settings the upload flags give, shared by `record`, `upload` and `flush`."""
    return UploadSettings(
        token=resolve_token(args.token_file, console),
        retries=args.retries,
        retry_delay=args.retry_delay,
        timeout=args.timeout,
        server_override=getattr(args, "flush_server", None),
    )
