"""The pure encoders on hand-written views: time units in pprof, and speedscope's published schema."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest

from stallscope.interop.pprof import encode_pprof
from stallscope.interop.pprof_strings import rewrite_strings
from stallscope.interop.protobuf import varint
from stallscope.interop.speedscope import encode_speedscope
from stallscope.interop.view import ViewProfile, from_folded
from tests.fixtures.corpus import REPO_ROOT
from tests.interop import go_pprof

FOLDED = [
    "db;main;query;scan 3000",
    "db;main;query;sort 1000",
    "web;main;serve 2000",
    "web;main;read;entry_SYSCALL_64_[k];vfs_read_[k] 500",
    "web;main;interp;Lfoo_[j] 250",
]
SPEEDSCOPE_SCHEMA = Path("frontend/node_modules/speedscope/dist/release/file-format-schema.json")


def test_varints_are_protobufs() -> None:
    assert varint(0) == b"\x00"
    assert varint(300) == b"\xac\x02"
    assert varint(-1) == b"\xff" * 9 + b"\x01"  # int64 -1: ten bytes, two's complement


def test_go_pprof_reads_time_weights_as_nanoseconds_and_rewritten_names(tmp_path: Path) -> None:
    """cpu-clock weights are nanoseconds already; off-CPU weights are µs and become ns."""
    start = datetime(2026, 11, 21, 8, 3, tzinfo=UTC)
    end = datetime(2026, 11, 21, 8, 3, 20, tzinfo=UTC)
    cpu = ViewProfile(from_folded(FOLDED), "ns", "cpu-clock", start=start, end=end)
    off = ViewProfile(from_folded(FOLDED), "us", "off-cpu", start=start, end=end)
    (tmp_path / "cpu.pb.gz").write_bytes(encode_pprof(cpu))
    (tmp_path / "off.pb.gz").write_bytes(encode_pprof(off))

    assert go_pprof.top(tmp_path / "cpu.pb.gz", "-unit=ns")[0] == 6750
    off_total, off_flats = go_pprof.top(tmp_path / "off.pb.gz", "-unit=ns")
    assert off_total == 6_750_000
    assert off_flats["vfs_read"] == 500_000
    raw = go_pprof.pprof(tmp_path / "off.pb.gz", "-raw")
    assert "intervals/count off-cpu/nanoseconds[dflt]" in raw
    assert "Duration: 20s" in raw

    # Redaction rewrites the string table only: the names change, the numbers do not.
    renamed = rewrite_strings(encode_pprof(off), lambda text: "proc-1" if text == "db" else text)
    (tmp_path / "renamed.pb.gz").write_bytes(renamed)
    tags = go_pprof.pprof(tmp_path / "renamed.pb.gz", "-tags", "-unit=ns")
    assert "comm: Total 6750000ns" in tags
    assert "4000000ns (59.26%): proc-1" in tags
    assert go_pprof.top(tmp_path / "renamed.pb.gz", "-unit=ns")[1]["scan"] == 3_000_000


def test_speedscope_file_matches_the_published_schema() -> None:
    schema_path = Path(os.environ.get("STALLSCOPE_SPEEDSCOPE_SCHEMA", REPO_ROOT / SPEEDSCOPE_SCHEMA))
    if not schema_path.is_file():
        pytest.skip(
            f"speedscope's schema is not at {schema_path}: `npm install --no-save speedscope` in "
            "frontend/ (or set STALLSCOPE_SPEEDSCOPE_SCHEMA to its file-format-schema.json)"
        )
    document = json.loads(encode_speedscope(ViewProfile(from_folded(FOLDED), "us", "off-cpu")))
    jsonschema.validate(document, json.loads(schema_path.read_text()))
    assert document["profiles"][0]["unit"] == "microseconds"
    assert document["profiles"][0]["endValue"] == 6750
