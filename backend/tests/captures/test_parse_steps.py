"""The parse job runs the features' registered steps and names none of them."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.captures import parsing
from stallscope.captures.parse_steps import Loaded, ParseStep, parse_steps
from stallscope.captures.parsing import parse_capture
from tests.captures.test_parse_writes import stored_capture

Conn = psycopg.Connection[tuple[Any, ...]]

JOB_MAY_IMPORT = (
    "stallscope.blobs.",
    "stallscope.captures.host_clock",
    "stallscope.captures.parse_claim",
    "stallscope.captures.parse_steps",
    "stallscope.config",
    "stallscope.db",
    "stallscope.ingest.",
    "stallscope.kit.",
)
"""The project's modules the job is built on; a feature's (or anything naming features) is not."""


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, wherever in it (a function's own imports too)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"relative import in {path.name}"
            found += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            found.append("__import__")
    return found


def test_the_parse_job_imports_no_feature() -> None:
    imported = imported_modules(Path(parsing.__file__))
    ours = [name for name in imported if name.split(".")[0] == "stallscope"]
    assert ours, "the job's imports were not found"
    assert [name for name in ours if not name.startswith(JOB_MAY_IMPORT)] == []
    assert not [name for name in imported if name.split(".")[0] in ("importlib", "__import__")]


def test_the_check_sees_a_feature_import(tmp_path: Path) -> None:
    job = tmp_path / "job.py"
    job.write_text("def load():\n    from stallscope.timeline.rollups import refresh_timeline_rollups\n")
    assert imported_modules(job) == ["stallscope.timeline.rollups.refresh_timeline_rollups"]
    assert not imported_modules(job)[0].startswith(JOB_MAY_IMPORT)


def test_the_registered_steps_in_the_order_they_run() -> None:
    steps = parse_steps()
    assert all(isinstance(step, ParseStep) for step in steps)
    assert [step.name for step in steps] == [
        "sample rollup",
        "timeline rollups",
        "sample slices",
        "thread states",
        "planner statistics",
        "call-site tree",
        "findings",
        "signatures",
    ]
    phases = {
        step.name: [
            part
            for part in ("observe", "in_transaction", "after_commit", "discard")
            if getattr(step, part) is not None
        ]
        for step in steps
    }
    assert phases == {
        "sample rollup": ["in_transaction", "discard"],
        "timeline rollups": ["in_transaction"],
        "sample slices": ["in_transaction"],
        "thread states": ["observe"],  # fed while the records are stored, written before the commit
        "planner statistics": ["after_commit"],
        "call-site tree": ["after_commit"],
        "findings": ["after_commit"],
        "signatures": ["after_commit"],
    }


def test_a_parse_replaces_every_table_it_wrote_before() -> None:
    assert parsing.capture_tables(parse_steps()) == [
        "samples",
        "capture_stack_totals",
        "events",
        "metrics",
        "metric_series",
        "capture_documents",
        "sample_rollup_captures",
        "timeline_rollups",
        "sample_slices",
        "capture_thread_states",
        "capture_callsite_trees",
        "capture_digests",
    ]


def test_every_steps_table_is_filled_by_capture(db: Conn) -> None:
    tables = [table for step in parse_steps() for table in step.tables]
    rows = db.execute(
        "SELECT table_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND column_name = 'capture_id' AND table_name = ANY(%s)",
        (tables,),
    ).fetchall()
    assert sorted(row[0] for row in rows) == sorted(tables)


ONE_SAMPLE = b"svc 42/42 [001] 10.000001: 1000 cpu-clock:\n\t    1111 main (/usr/bin/svc)\n\n"


def _swallow_an_error(loaded: Loaded) -> None:
    with contextlib.suppress(psycopg.errors.DivisionByZero):  # the mistake: no savepoint
        loaded.conn.execute("SELECT 1 / 0")


def test_a_step_that_leaves_the_transaction_failed_fails_the_parse(
    api: TestClient, database_url: str, db: Conn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else the commit would roll back every row and the capture would end ready with none."""
    careless = ParseStep(name="careless", in_transaction=_swallow_an_error)
    monkeypatch.setattr(parsing, "parse_steps", lambda: (*parse_steps(), careless))
    capture_id = stored_capture(api, database_url, ONE_SAMPLE)
    parse_capture(database_url, capture_id)
    row = db.execute(
        "SELECT status, error, (SELECT count(*) FROM samples WHERE capture_id = c.id) FROM captures c "
        "WHERE id = %s",
        (capture_id,),
    ).fetchone()
    assert row is not None
    status, error, samples = row
    assert (status, samples) == ("failed", 0)
    assert "the parse step 'careless' left the parse's transaction failed" in error
