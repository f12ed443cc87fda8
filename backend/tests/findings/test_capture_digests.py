"""A capture's digest as the server builds it after a parse, on real captures: the same whether its
stacks come off the stored call-site tree or the stacks table, the same read back from what was
stored, and its CPU rows in key order whatever plan the database groups them with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
from fastapi.testclient import TestClient
from sqlalchemy import text

from stallscope.analysis.findings.digest import VERSION, CaptureDigest, digest_from_json
from stallscope.blobs.configured import blob_store
from stallscope.captures import service
from stallscope.captures.parsing import parse_capture
from stallscope.captures.schemas import UploadInfo
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.findings import repository
from stallscope.findings.digests import build_digest
from tests.analysis.findings.lab import variant
from tests.fixtures.corpus import corpus_file
from tests.fixtures.factories import make_incident

Conn = psycopg.Connection[tuple[Any, ...]]


def parsed(api: TestClient, database_url: str, path: Path) -> int:
    """The file stored as an upload is, then parsed here (never queued: the worker leaves it)."""
    settings = get_settings()
    writer = blob_store(settings).start_upload(settings.max_upload_bytes)
    writer.write(path.read_bytes())
    blob = writer.commit()
    with get_session_factory(database_url)() as session:
        upload = UploadInfo(filename=path.name, host="digests")
        capture = service.record_upload(session, make_incident(api)["id"], upload, blob)
        session.commit()
    parse_capture(database_url, capture.id)
    return capture.id


def cpu_keys(digest: CaptureDigest) -> list[tuple[Any, ...]]:
    """(event, pid, tid, comm, stack) of each CPU row; stacks are numbered in stored id order."""
    missing_last = 1 << 63
    return [
        (
            row.event,
            missing_last if row.pid is None else row.pid,
            missing_last if row.tid is None else row.tid,
            row.comm,
            row.stack,
        )
        for row in digest.cpu
    ]


def test_the_digest_is_the_same_from_the_tree_the_table_and_the_stored_json(
    api: TestClient, database_url: str, db: Conn
) -> None:
    captures = [
        parsed(api, database_url, corpus_file("captures", "clockmono", "cpu5s_clockmono.perf.txt.gz")),
        parsed(api, database_url, variant("lock-convoy", "bad") / "offcpu.perf.txt.gz"),
    ]
    factory = get_session_factory(database_url)
    for capture_id in captures:
        with factory() as session:
            # The database would group the CPU rows by hashing them, in no particular order.
            session.execute(text("SET LOCAL enable_sort = off"))
            from_tree = build_digest(session, capture_id)
        version, stored = db.execute(
            "SELECT version, digest FROM capture_digests WHERE capture_id = %s", (capture_id,)
        ).fetchone() or (None, None)
        assert from_tree is not None
        assert version == VERSION
        assert from_tree.cpu or from_tree.waits
        assert any(stack for stack in from_tree.stacks)
        # Equal weights are named in the order rows come: key order, not the plan's.
        keys = cpu_keys(from_tree)
        assert keys == sorted(keys)

        db.execute("DELETE FROM capture_callsite_trees WHERE capture_id = %s", (capture_id,))
        with factory() as session:
            assert repository.stored_callsite_tree(session, capture_id) is None
            from_table = build_digest(session, capture_id)
        assert from_table == from_tree

        read_back = digest_from_json(json.loads(json.dumps(stored)))
        assert read_back == from_tree
