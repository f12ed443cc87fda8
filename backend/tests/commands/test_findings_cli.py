"""`stallscope findings`: a collector-run folder in, the cause named, in text or the documented JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from stallscope.cli import main
from tests.analysis.findings.lab import variant

SCENARIO = "fsync-behind-writeback"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["findings", *args, "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_a_folder_against_its_baseline_in_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    body = run_json(capsys, str(variant(SCENARIO, "bad")), "--baseline", str(variant(SCENARIO, "fixed")))
    assert body["hosts"] == ["bad"]
    assert body["baseline_hosts"] == ["fixed"]
    findings = body["findings"]
    assert isinstance(findings, list)
    first = findings[0]
    assert first["id"] == SCENARIO
    assert set(first) >= {"id", "title", "severity", "confidence", "summary", "hosts", "evidence", "view"}
    assert first["view"].startswith("/flame?hosts=bad&")
    severities = ["critical", "warning", "info"]
    ranks = [(severities.index(f["severity"]), -f["confidence"]) for f in findings]
    assert ranks == sorted(ranks)


def test_host_names_the_folder_and_files_no_importer_reads_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "db-7"
    shutil.copytree(variant(SCENARIO, "bad"), folder)
    (folder / "notes.txt").write_text("the on-call engineer's notes\n")
    assert main(["findings", str(folder)]) == 0
    captured = capsys.readouterr()
    assert "on db-7" in captured.out
    assert "fsync waits behind writeback (fsync-behind-writeback)" in captured.out
    assert "notes.txt: skipped" in captured.err
    body = run_json(capsys, str(folder), "--host", "pg-primary")
    assert body["hosts"] == ["pg-primary"]


def test_nothing_readable_is_an_error_and_the_table_lists_every_detector(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["findings", str(tmp_path / "missing")]) == 1
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["findings"]) == 2
    capsys.readouterr()
    assert main(["findings", "--detectors"]) == 0
    table = capsys.readouterr().out
    assert "`mmap-lock-contention`" in table
    assert "`what-changed`" in table
