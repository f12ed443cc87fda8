"""A round's files sent to the host's watch stream, through record's spool and sender.

Each file is compressed into the spool with a sidecar that says `watch` instead of an incident,
so the upload (and a later `flush`) goes to `POST /api/collector/captures?watch=true&…`.
"""

from __future__ import annotations

import os
from typing import Any

from stallscope_collect.console import Console
from stallscope_collect.formatting import describe
from stallscope_collect.perf.tool import Perf
from stallscope_collect.record.outputs import Output
from stallscope_collect.upload.meta import capture_meta
from stallscope_collect.upload.sender import UploadSettings, send_all
from stallscope_collect.upload.spool import Spool, SpoolEntry


def spool_round(
    spool: Spool,
    outputs: list[Output],
    server: str,
    host: str,
    stamp: str,
    perf: Perf | None,
    watch: dict[str, Any],
    console: Console,
) -> tuple[list[SpoolEntry], int]:
    """Each output compressed into the spool for the watch stream; (entries, files that failed)."""
    entries: list[SpoolEntry] = []
    failed = 0
    for out in outputs:
        name = os.path.basename(out.path)
        meta = capture_meta(out.kind, out.commands, [], perf, out.warnings)
        meta["watch"] = dict(watch)
        info = {
            "server": server,
            "watch": True,
            "incident": None,
            "filename": f"{stamp}-{name}" if name.endswith(".gz") else f"{stamp}-{name}.gz",
            "host": host,
            "kind": out.kind,
            "clock": out.clock,
            "meta": meta,
        }
        try:
            entries.append(spool.add(out.path, info, console))
        except OSError as exc:
            failed += 1
            console.error(
                f"could not spool {name}: {describe(exc)} (the file stays in its round's directory)"
            )
    return entries, failed


def in_stream(entry: SpoolEntry, server: str, host: str) -> bool:
    """Is this spooled capture one of this host's watch captures for this console?"""
    info = entry.info
    return bool(info.get("watch")) and info.get("server") == server and info.get("host") == host


def send_round(
    spool: Spool,
    older: list[SpoolEntry],
    fresh: list[SpoolEntry],
    settings: UploadSettings,
    server: str,
    host: str,
    console: Console,
) -> tuple[int, int]:
    """Send the stream's spooled captures in the order they were taken, then this round's; then,
    when all of those went through, what else earlier runs left (as `record` does). (sent now,
    sent from earlier rounds)."""
    stream = [e for e in older if in_stream(e, server, host)]
    others = [e for e in older if not in_stream(e, server, host)]
    _, left = send_all(spool, stream + fresh, settings, console)
    if left == 0 and others:
        send_all(spool, others, settings, console)
    sent_now = sum(1 for e in fresh if not os.path.exists(e.sidecar_path))
    sent_earlier = sum(1 for e in older if not os.path.exists(e.sidecar_path))
    return sent_now, sent_earlier


def waiting_in_stream(spool: Spool, server: str | None, host: str) -> int:
    """This stream's captures still in the spool (none without a server)."""
    if not server:
        return 0
    return sum(1 for e in spool.entries() if in_stream(e, server, host))
