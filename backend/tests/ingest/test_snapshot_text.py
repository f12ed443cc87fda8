"""Text snapshots recorded on a real host, in each header style, mapped into the collector's model."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from stallscope.analysis.config_diff import diff_snapshots
from stallscope.ingest import snapshot_text
from stallscope.ingest.model import Document, ParseError, ParseReport
from stallscope.ingest.registry import HEAD_BYTES, detect_importer
from stallscope.ingest.snapshot import model
from stallscope.ingest.snapshot_text import parser, repeats, sections
from tests.fixtures.corpus import corpus_dir, corpus_missing

DATA = Path(__file__).parent / "data"
SNAP = DATA / "snapshot_text"
TEXT_FILES = sorted(p for p in SNAP.rglob("*.txt"))


def parse(data: bytes) -> tuple[list[dict[str, Any]], ParseReport]:
    report = ParseReport()
    documents = []
    for record in snapshot_text.parse_snapshot_text(io.BytesIO(data), report):
        assert isinstance(record, Document)
        assert record.kind == model.KIND
        documents.append(record.content)
    return documents, report


def takes(name: str) -> list[dict[str, Any]]:
    return parse((SNAP / name).read_bytes())[0]


def collector() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((SNAP / "collector.json").read_text())
    return document


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda p: str(p.relative_to(SNAP)))
def test_the_registry_picks_the_text_importer_for_every_recorded_snapshot(path: Path) -> None:
    assert detect_importer(path.read_bytes()[:HEAD_BYTES]).name == "snapshot-text"


def other_inputs() -> list[Path]:
    return sorted(
        p
        for p in DATA.rglob("*")
        if p.is_file() and SNAP not in p.parents and p.suffix not in (".md", ".py", ".sh", ".c")
    )


@pytest.mark.parametrize("path", other_inputs(), ids=lambda p: str(p.relative_to(DATA)))
def test_detect_claims_no_other_format(path: Path) -> None:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    assert not snapshot_text.detect(data[:HEAD_BYTES])


@pytest.mark.parametrize(
    "text",
    [
        "== Introduction ==\nThis page says how to file a bug.\n== Steps ==\n1. look\n",
        "# Notes\n# TODO\nsome text\n",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        "key = value\nother: thing\nname=x\n",
        "main;foo;bar 10\nmain;foo 3\n",
        "# ========\n# captured on: Mon Nov 23 10:00:00 2026\n# hostname : db-7\n# os release : 6.1.0\n"
        "# perf version : 6.1.192\n# ========\n#\napp 4242 [001] 12.345678: 10101 cpu-clock:\n",
    ],
)
def test_detect_refuses_text_that_only_looks_sectioned(text: str) -> None:
    assert not snapshot_text.detect(text.encode())


@pytest.mark.parametrize(
    ("name", "style"),
    [
        ("eq_paths.txt", "== path =="),
        ("head_v.txt", "== path =="),
        ("hash_paths_twice.txt", "# path"),
        ("dash_named.txt", "---- name ----"),
        ("path_equals.txt", None),
    ],
)
def test_each_header_style_maps_the_settings_the_stories_name(name: str, style: str | None) -> None:
    document = takes(name)[0]
    sections = document["sections"]
    assert document["stallscope"] == "snapshot"
    assert document["source"] == {
        "format": "text",
        "header_style": style,
    }
    thp = sections["transparent_hugepage"]
    assert thp["enabled"] == "always [madvise] never"
    # Read under a directory (`grep -r . THP`) in the named style: every file, as `khugepaged_defrag`.
    assert thp["defrag"] == "always defer defer+madvise [madvise] never"
    assert thp["khugepaged_defrag"] == "1"
    assert sections["vm"]["dirty_ratio"] == "20"
    assert sections["vm"]["dirty_background_ratio"] == "10"
    assert sections["kernel_sysctl"]["perf_event_paranoid"] == "2"
    assert sections["perf"]["perf_event_paranoid"] == 2
    assert sections["tracing"]["set_event"] == []
    # This host has no kprobe_events (no kprobes): `cat` said so, and that is recorded as the collector does.
    assert sections["tracing"]["kprobe_events"] is None
    assert sections["tracing"]["errors"]["kprobe_events"] == "No such file or directory"
    assert sections["cpu"]["governors"] is None
    assert sections["cgroup"]["memory/appserver/memory.limit_in_bytes"] == str(512 << 20)


def test_paths_take_maps_kernel_mounts_processes_and_keeps_ps_and_top_as_text() -> None:
    document = takes("eq_paths.txt")[0]
    sections = document["sections"]
    assert document["host"] == "vm"  # from `uname -a`
    assert sections["kernel"]["uname"].startswith("Linux vm 6.18.44-fc-v669 ")
    assert sections["kernel"]["proc_version"].startswith("Linux version 6.18.44-fc-v669 ")
    assert sections["mounts"]["/proc"] == {"device": "proc", "type": "proc", "options": "rw,relatime"}
    (process,) = sections["processes"].values()
    assert process["comm"] == "appserver"
    assert process["environment"] == {"MALLOC_ARENA_MAX": "2", "LD_BIND_NOW": "1"}  # DB_PASSWORD is not kept
    assert "4:memory:/appserver" in process["cgroup"]
    assert sections["bpf"] == {"programs": []}
    kept = document["text_sections"]
    assert [name.split()[0] for name in kept] == ["ps", "top"]
    assert "appserver" in next(iter(kept.values()))
    assert "sample-secret" not in json.dumps(document)


def test_named_sections_read_sysctl_kernel_config_environment_and_mount_command() -> None:
    document, report = parse((SNAP / "dash_named.txt").read_bytes())
    sections = document[0]["sections"]
    assert len(sections["sysctl"]) > 1000
    assert sections["sysctl"]["fs.file-max"].isdigit()
    assert sections["kernel_config"]["CONFIG_TRANSPARENT_HUGEPAGE"] == "y"
    assert sections["kernel_config"]["CONFIG_KPROBES"] in ("y", "n")
    assert sections["environment"] == {"MALLOC_ARENA_MAX": "4"}  # not API_TOKEN, nor PATH
    assert "sample-not-a-secret" not in json.dumps(document)
    assert any("environment variables not kept" in w.message for w in report.warnings)
    assert sections["mounts"]["/proc"]["options"] == "rw,relatime"
    assert set(document[0]["text_sections"]) == {"ps", "top"}


def test_start_and_end_markers_make_two_takes_with_their_times() -> None:
    start, end = takes("start_end.txt")
    assert (start["take"]["label"], end["take"]["label"]) == ("start", "end")
    assert start["taken_at_ns"] is not None
    assert end["taken_at_ns"] > start["taken_at_ns"]
    assert start["sections"]["bpf"]["programs"] == []
    (program,) = end["sections"]["bpf"]["programs"]
    assert (program["type"], program["name"], program["gpl_compatible"]) == ("tracepoint", "fsync_lat", True)
    instance = end["sections"]["tracing"]["instances/appserver-debug/set_event"]
    assert instance == ["sched:sched_switch", "block:block_rq_issue"]


def test_the_same_sections_printed_twice_are_two_takes() -> None:
    first, second = takes("hash_paths_twice.txt")
    assert (first["take"]["index"], second["take"]["index"]) == (0, 1)
    assert first["sections"]["transparent_hugepage"] == second["sections"]["transparent_hugepage"]


@pytest.mark.parametrize("name", ["sysctl_a.txt", "grep_r.txt"])
def test_headerless_sysctl_and_grep_output_are_snapshots(name: str) -> None:
    (document,) = takes(name)
    vm = document["sections"]["vm"]
    assert vm["dirty_ratio"] == "20"
    assert vm["swappiness"] == "60"
    assert "drop_caches" not in vm or name == "grep_r.txt"


def test_a_collector_document_and_a_text_snapshot_of_the_same_host_do_not_differ() -> None:
    """Taken a second apart by record.sh: same keys, same values after normalisation."""
    text = takes("eq_paths.txt")[0]
    diff = diff_snapshots(collector(), text)
    assert not diff.differs, (diff.changed, diff.added, diff.removed)
    compared = {(c.section, c.key) for c in diff.unchanged}
    assert {("transparent_hugepage", "defrag"), ("vm", "dirty_ratio"), ("tracing", "tracing_on")} <= compared
    assert ("processes", "appserver · environment · LD_BIND_NOW") in compared


def test_gnu_quoted_read_errors_are_recorded_not_kept_as_values() -> None:
    denied = "head: cannot open \u2018/proc/sys/vm/dirty_ratio\u2019 for reading: Permission denied"
    text = f"== /proc/sys/vm/dirty_ratio ==\n{denied}\n"
    text += "== /proc/sys/vm/swappiness ==\n60\n== uname -a ==\nLinux h 6.1.0 #1 SMP x86_64 GNU/Linux\n"
    (document,), _ = parse(text.encode())
    vm = document["sections"]["vm"]
    assert vm["dirty_ratio"] is None
    assert vm["errors"]["dirty_ratio"] == "Permission denied"
    assert vm["swappiness"] == "60"


def test_a_digit_run_too_long_for_an_int_is_kept_as_text_not_a_crash() -> None:
    """Found by the fuzz suite: `int()` refuses strings of more than 4,300 digits."""
    long_number = "9" * 5000
    text = (
        f"== /proc/sys/kernel/perf_event_paranoid ==\n{long_number}\n== uname -a ==\nLinux h 6.1 #1 x86_64\n"
    )
    text += f"== bpftool prog show ==\n{long_number}: kprobe  name x  tag 0123abcd  gpl\n"
    (document,), _ = parse(text.encode())
    assert document["sections"]["kernel_sysctl"]["perf_event_paranoid"] == long_number
    assert "perf" not in document["sections"]
    assert "bpftool prog show" in document["text_sections"]


def test_text_with_no_section_at_all_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        parse(b"\n\n")


def test_a_file_of_many_takes_keeps_the_first_19_and_the_last_mapped_in_full() -> None:
    one = (SNAP / "eq_paths.txt").read_text()
    header = "== /proc/sys/vm/dirty_ratio ==\n20\n"
    assert header in one
    text = "".join(one.replace(header, f"== /proc/sys/vm/dirty_ratio ==\n{i}\n") for i in range(25))
    documents, report = parse(text.encode())
    ratios = [d["sections"]["vm"]["dirty_ratio"] for d in documents]
    assert ratios == [str(i) for i in [*range(19), 24]]
    assert [d["take"]["index"] for d in documents][-2:] == [18, 24]
    assert documents[-1]["sections"]["processes"] == documents[0]["sections"]["processes"]
    assert documents[-1]["text_sections"] == documents[0]["text_sections"]
    assert any("5 takes between take 19 and the last were not kept" in w.message for w in report.warnings)


def variants(text: str) -> list[str]:
    """A recorded snapshot several times over, then with read errors where values were, and with
    the values changed in every other take: sections that repeat and sections that do not."""
    errors = text.replace("\n0\n", "\ncat: /proc/mounts: Permission denied\n")
    changed = "".join(text.replace("\n1\n", f"\n{i}\n") if i % 2 else text for i in range(4))
    return [text * 3, errors * 3, changed]


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda p: str(p.relative_to(SNAP)))
def test_the_fast_paths_read_what_the_general_path_reads(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file's own value put at once, and a section read again by replaying its first reading,
    against every section read in full."""
    inputs = [variant.encode() for variant in variants(path.read_text())]
    repeats._calls.cache_clear()
    fast = [parse(data) for data in inputs]
    monkeypatch.setattr(parser, "read_section_once", sections.read_section)
    opening = parser.opening
    monkeypatch.setattr(parser, "opening", lambda name: dataclasses.replace(opening(name), scalar=None))
    general = [parse(data) for data in inputs]
    for (fast_documents, fast_report), (documents, report) in zip(fast, general, strict=True):
        assert fast_documents == documents
        assert fast_report.warnings == report.warnings


def test_a_section_read_again_owns_its_values() -> None:
    documents, _ = parse((SNAP / "eq_paths.txt").read_bytes() * 2)
    first, second = (document["sections"]["mounts"] for document in documents)
    assert first == second
    assert first is not second
    assert all(first[point] is not second[point] for point in first)


def test_detect_claims_no_capture_of_the_shared_corpus() -> None:
    missing = corpus_missing()
    if missing is not None:
        pytest.skip(missing)
    claimed = []
    for path in sorted(corpus_dir().rglob("*")):
        if not path.is_file() or path.suffix not in (".txt", ".gz", ".folded", ".csv", ".json"):
            continue
        with gzip.open(path) if path.suffix == ".gz" else open(path, "rb") as stream:
            head = stream.read(HEAD_BYTES)
        if snapshot_text.detect(head):
            claimed.append(path.name)
    assert claimed == []
