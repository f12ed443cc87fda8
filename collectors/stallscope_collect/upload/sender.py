"""Sending spooled captures: retries with backoff, one sender per spool, the token."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from dataclasses import dataclass
from typing import Sequence

from stallscope_collect.console import Console
from stallscope_collect.files import size_or_zero
from stallscope_collect.formatting import describe, fmt_bytes
from stallscope_collect.upload.client import Attempt, backoff_delay, capture_url, post_once
from stallscope_collect.upload.spool import Spool, SpoolEntry


@dataclass
class UploadSettings:
    token: str | None
    retries: int = 5
    retry_delay: float = 1.0
    timeout: float = 120.0
    server_override: str | None = None


def send_entry(spool: Spool, entry: SpoolEntry, settings: UploadSettings, console: Console) -> Attempt:
    """Send one spooled capture, retrying connection errors and 5xx; removed from the spool on success."""
    server = settings.server_override or entry.info.get("server")
    if not server:
        return Attempt(False, False, f"no server for {entry.label}: pass --server")
    if not settings.token:
        return Attempt(False, False, "no upload token: set STALLSCOPE_TOKEN or pass --token-file")
    url = capture_url(str(server), entry.info)
    result = Attempt(False, True, "not tried")
    for attempt in range(settings.retries + 1):
        result = post_once(url, entry.body_path, settings.token, settings.timeout, console, entry.label)
        if result.ok or not result.retryable or attempt == settings.retries:
            break
        delay = (
            result.retry_after
            if result.retry_after is not None
            else backoff_delay(attempt, settings.retry_delay)
        )
        console.info(
            f"upload of {entry.label} failed ({result.message}); "
            f"retry {attempt + 1} of {settings.retries} in {delay:.1f} s"
        )
        time.sleep(delay)
    if result.ok:
        size = fmt_bytes(size_or_zero(entry.body_path))  # before removal, which deletes the body
        spool.remove(entry)
        capture = result.response or {}
        console.status(
            f"uploaded {entry.label} ({size}): capture {capture.get('id', '?')} {capture.get('status', '')}",
            final=True,
        )
        console.reset_pace()
        return result
    entry.info["attempts"] = int(entry.info.get("attempts", 0)) + settings.retries + 1
    entry.info["last_error"] = result.message
    with contextlib.suppress(OSError):
        spool.update(entry)
    return result


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
