"""A host's clock anchors, uploaded as a capture of their own, align the host's other captures.

An anchor file (`ingest/clock_anchors`) is parsed into a `clock-anchors` document. A capture on the
capture clock (perf, ftrace: seconds since boot) that nothing else aligns takes the anchors of the
newest anchor capture of the same host in the same incident when it is parsed. Captures parsed
before the anchors arrived are parsed again from their stored upload once the anchors are in
(`realign_host`), and a capture that finished unaligned while an anchor capture was being parsed
checks once more when it ends, so whichever of the two finishes last does the aligning.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from stallscope.captures.parse_queue import send_parse
from stallscope.ingest.clock import HostAnchors
from stallscope.ingest.clock_anchors import DOCUMENT_KIND
from stallscope.ingest.clock_anchors import IMPORTER as ANCHOR_IMPORTER
from stallscope.ingest.model import CaptureClock

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

HOST_ANCHORS = """
    SELECT c.id, c.filename, d.content
    FROM captures me
    JOIN captures c
      ON c.incident_id = me.incident_id AND c.host_id IS NOT DISTINCT FROM me.host_id AND c.id <> me.id
    JOIN capture_documents d ON d.capture_id = c.id AND d.kind = %(kind)s
    WHERE me.id = %(id)s AND c.status IN ('ready', 'partial')
    ORDER BY c.id DESC
    LIMIT 1
"""

UNALIGNED_OF_HOST = """
    SELECT c.id FROM captures c JOIN captures me
      ON c.incident_id = me.incident_id AND c.host_id IS NOT DISTINCT FROM me.host_id AND c.id <> me.id
    WHERE me.id = %(id)s AND c.clock->>'mode' = 'unaligned'
      AND coalesce(c.clock->>'capture_clock', %(monotonic)s) = %(monotonic)s
"""

REQUEUE = """
    UPDATE captures
    SET status = 'queued', progress = 0, error = NULL, parse_attempt = parse_attempt + 1,
        queued_at = now(), recoveries = 0, recovery_note = NULL
    WHERE id = ANY(%s) AND status IN ('ready', 'partial')
    RETURNING id, parse_attempt
"""
"""A new parse attempt for each parsed capture of the list, as a person's re-parse makes one."""


def host_anchors(conn: Conn, capture_id: int) -> HostAnchors | None:
    """The anchors of the capture's host, from the newest parsed anchor capture beside it."""
    row = conn.execute(HOST_ANCHORS, {"id": capture_id, "kind": DOCUMENT_KIND}).fetchone()
    if row is None:
        return None
    anchor_capture, filename, content = row
    offset = content.get("offset_ns") if isinstance(content, dict) else None
    if not isinstance(offset, int):
        return None
    return HostAnchors(offset, content.get("source_clock") == "perf", anchor_capture, filename)


def realign_host(conn: Conn, capture_id: int, clock: dict[str, Any], format_name: str | None) -> int:
    """After capture `capture_id` is parsed: queue what its anchors now align; returns how many.

    An anchor capture re-times its host's unaligned captures; any other capture that ended unaligned
    on the capture clock re-times itself if its host's anchors arrived while it was being parsed.
    """
    if format_name == ANCHOR_IMPORTER.name:
        params = {"id": capture_id, "monotonic": CaptureClock.MONOTONIC.value}
        targets = [row[0] for row in conn.execute(UNALIGNED_OF_HOST, params).fetchall()]
    else:
        on_capture_clock = clock.get("capture_clock") == CaptureClock.MONOTONIC.value
        unaligned = clock.get("mode") == "unaligned" and on_capture_clock
        targets = [capture_id] if unaligned and host_anchors(conn, capture_id) is not None else []
    if not targets:
        return 0
    queued = conn.execute(REQUEUE, (targets,)).fetchall()
    for target, attempt in queued:
        send_parse(target, attempt)
    if queued:
        log.info("capture %s: clock anchors re-time captures %s", capture_id, [q[0] for q in queued])
    return len(queued)
