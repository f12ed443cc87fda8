"""`stallscope configdiff` on the snapshots recorded for the importer tests: both outputs, takes, errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from stallscope.cli import main

SNAP = Path(__file__).resolve().parents[1] / "ingest" / "data" / "snapshot_text"
HEALTHY, IMPACTED = SNAP / "pair" / "healthy.txt", SNAP / "pair" / "impacted.txt"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> dict[str, Any]:
    assert main(["configdiff", *map(str, argv), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def keys(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(row["section"], row["key"]) for row in rows]


def test_the_impacted_host_against_the_healthy_one(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, HEALTHY, IMPACTED)
    assert keys(result["changed"]) == [
        ("transparent_hugepage", "defrag"),
        ("cpu", "governors"),
        ("vm", "dirty_background_ratio"),
        ("vm", "dirty_ratio"),
    ]
    assert [(r["a"], r["b"]) for r in result["changed"]] == [
        ("madvise", "always"),
        ("performance", "powersave"),
        ("10", "50"),
        ("20", "80"),
    ]
    assert ("bpf", "program · tracepoint fsync_lat") in keys(result["added"])
    assert ("tracing", "kprobe_events · p:kprobes/fsync_entry") in keys(result["added"])
    assert ("tracing", "instances/appserver-debug/set_event · sched:sched_switch") in keys(result["added"])
    assert keys(result["removed"]) == [("processes", "appserver · environment · LD_BIND_NOW")]
    assert isinstance(result["unchanged"], int)
    assert result["unchanged"] > 30
    assert (result["a"]["file"], result["b"]["host"]) == (str(HEALTHY), "vm")


def test_text_output_lists_changes_with_why_they_matter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["configdiff", str(HEALTHY), str(IMPACTED)]) == 0
    out = capsys.readouterr().out
    assert "changed (4):" in out
    assert "  transparent_hugepage: defrag: madvise -> always" in out
    assert "compaction stalls" in out
    assert "removed in B (1):" in out
    assert out.index("changed (4):") < out.index("added in B") < out.index("removed in B")
    assert "settings unchanged (--all lists them)" in out


def test_one_file_compares_its_start_with_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, SNAP / "start_end.txt")
    assert (result["a"]["label"], result["b"]["label"]) == ("start", "end")
    assert (result["a"]["take"], result["b"]["take"], result["b"]["takes"]) == (1, 2, 2)
    assert result["changed"] == []
    assert keys(result["added"]) == [
        ("tracing", "instances/appserver-debug/set_event · block:block_rq_issue"),
        ("tracing", "instances/appserver-debug/set_event · sched:sched_switch"),
        ("bpf", "program · tracepoint fsync_lat"),
    ]


def test_a_collector_document_against_a_compressed_text_snapshot_of_the_same_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "eq_paths.txt.gz"
    text.write_bytes(gzip.compress((SNAP / "eq_paths.txt").read_bytes()))
    result = run_json(capsys, SNAP / "collector.json", text, "--all")
    assert (result["changed"], result["added"], result["removed"]) == ([], [], [])
    assert ("transparent_hugepage", "defrag") in keys(result["unchanged"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eq_paths.txt"], "holds one take; give a second file"),
        (["eq_paths.txt", "start_end.txt", "--take-b", "3"], "has 2 takes, not 3"),
        (["eq_paths.txt", "missing.txt"], "missing.txt: No such file or directory"),
        (["eq_paths.txt", "record.sh"], "record.sh: line 1: unrecognised format"),
    ],
)
def test_errors_name_the_file_and_exit_1(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(SNAP / a) if not a.startswith("-") and not a.isdigit() else a for a in argv]
    assert main(["configdiff", *paths]) == 1
    assert message in capsys.readouterr().err


def test_a_capture_that_is_not_a_snapshot_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folded = tmp_path / "stacks.folded"
    folded.write_text("main;foo;bar 10\nmain;foo 3\n")
    assert main(["configdiff", str(SNAP / "eq_paths.txt"), str(folded)]) == 1
    assert "not a system snapshot (read as collapsed)" in capsys.readouterr().err
