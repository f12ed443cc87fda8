"""`stallscope findings PATH... [--baseline PATH...]`: name the cause from local captures, no server.

Each PATH is a capture file or a folder of them (a collector run); every file is detected as an
upload would be, read once into a digest, and the detectors the console runs after each parse run
on the digests (`stallscope.analysis.findings`), so the findings and their numbers match the
console's for the same files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stallscope.analysis.findings.digest import CaptureDigest
    from stallscope.analysis.findings.engine import FindingsResult
    from stallscope.ingest.clock import HostAnchors

HELP = "name the likely cause of a latency incident from capture files, with its evidence"
DESCRIPTION = """\
Run the console's detectors on local captures: mmap_lock contention, lazy symbol binding, THP
compaction, hot kernel spin locks, fsync behind writeback, probe/BPF overhead, thundering herds,
lock convoys, run-queue starvation, memory pressure, GC, high system time, I/O wait, and (with a
baseline) what changed. Each finding has a severity, a confidence, quantified evidence and the
console view that shows it.

A PATH is a capture file or a folder (every file in it, each detected as on upload; a folder is
one host, named after the folder unless --host says otherwise; the collector's clock.json in it
aligns the folder's captures). --baseline names the healthy side (another host, the capture
after the fix): findings say how the two differ.

examples:
  stallscope findings /var/tmp/inc12                       # a collector run
  stallscope findings impacted/ --baseline healthy/
  stallscope findings cpu.perf.txt offcpu.perf.txt --json | jq '.findings[0]'
  stallscope findings --detectors                          # every detector and its thresholds

exit status: 0 done (with or without findings), 1 nothing could be read, 2 usage"""

SEVERITY_MARK = {"critical": "CRIT", "warning": "WARN", "info": "info"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", type=Path, nargs="*", metavar="PATH", help="capture files or folders")
    parser.add_argument(
        "--baseline", type=Path, nargs="+", default=[], metavar="PATH", help="the healthy side"
    )
    parser.add_argument(
        "--host", metavar="NAME", help="host name for the impacted PATHs (default: folder name)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--detectors", action="store_true", help="list the detectors and their thresholds")


def run(args: argparse.Namespace) -> int:
    if args.detectors:
        from stallscope.analysis.findings.table import detector_table

        print(detector_table())
        return 0
    if not args.paths:
        print("stallscope findings: give at least one capture file or folder (see --help)", file=sys.stderr)
        return 2
    from stallscope.analysis.findings.engine import run_findings

    impacted = read_side(args.paths, args.host)
    baseline = read_side(args.baseline, None) if args.baseline else Side()
    for note in impacted.notes + baseline.notes:
        print(f"stallscope findings: {note}", file=sys.stderr)
    if not impacted.digests:
        print("stallscope findings: no capture could be read", file=sys.stderr)
        return 1
    result = run_findings(impacted.digests, baseline.digests)
    if args.json:
        print(json.dumps(_as_json(result, impacted, baseline), indent=2))
    else:
        _print_text(result, impacted, baseline)
    return 0


@dataclass(slots=True)
class Side:
    digests: list[CaptureDigest] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_side(paths: list[Path], host: str | None) -> Side:
    side = Side()
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            name = host or path.resolve().name
        elif path.exists():
            files, name = [path], host or path.resolve().parent.name
        else:
            side.notes.append(f"{path}: no such file or folder")
            continue
        _read_host(files, name, side)
    return side


def _read_host(files: list[Path], host: str, side: Side) -> None:
    """One host's files: clock anchors first (they align the others), then every capture."""
    from stallscope.commands.local_file import open_local_capture
    from stallscope.ingest.model import ParseError

    anchors = _anchors(files)
    for path in files:
        try:
            with open_local_capture(path) as capture:
                if capture.format == "clock-anchors":
                    continue
                side.digests.append(_digest(capture, host, anchors))
                side.files.append(str(path))
        except ParseError as exc:
            side.notes.append(f"{path}: skipped: {exc}")
        except OSError as exc:
            side.notes.append(f"{path}: skipped: {exc.strerror or exc}")


def _anchors(files: list[Path]) -> HostAnchors | None:
    from stallscope.commands.local_file import open_local_capture
    from stallscope.ingest.clock import HostAnchors
    from stallscope.ingest.model import Document, ParseError

    for path in files:
        try:
            with open_local_capture(path) as capture:
                if capture.format != "clock-anchors":
                    continue
                for record in capture.records():
                    if isinstance(record, Document) and isinstance(record.content.get("offset_ns"), int):
                        offset = record.content["offset_ns"]
                        assert isinstance(offset, int)
                        return HostAnchors(offset, record.content.get("source_clock") == "perf", 0, path.name)
        except (ParseError, OSError):
            continue
    return None


def _digest(capture: Any, host: str, anchors: HostAnchors | None) -> CaptureDigest:
    from stallscope.analysis.findings.digest_builder import DigestBuilder
    from stallscope.ingest.clock import clock_mapping, on_capture_clock

    mapping = clock_mapping(capture.clock, {}, capture.head, anchors)
    offset, shift = mapping.offset_ns, mapping.shift_ns

    def to_utc(ns: int) -> int:
        return (ns + offset if on_capture_clock(ns) else ns) + shift

    builder = DigestBuilder(Path(capture.name).name, host, capture.format, to_utc)
    for record in capture.records():
        builder.add(record)
    return builder.result()


def _as_json(result: FindingsResult, impacted: Side, baseline: Side) -> dict[str, Any]:
    return {
        "hosts": result.hosts,
        "baseline_hosts": result.baseline_hosts,
        "files": impacted.files,
        "baseline_files": baseline.files,
        "notes": impacted.notes + baseline.notes + result.notes,
        "findings": [f.as_json() for f in result.findings],
    }


def _print_text(result: FindingsResult, impacted: Side, baseline: Side) -> None:
    side = f"{len(impacted.files)} files on {', '.join(result.hosts)}"
    if baseline.files:
        side += f"; baseline: {len(baseline.files)} files on {', '.join(result.baseline_hosts)}"
    print(side)
    if not result.findings:
        print("No finding: no detector's pattern is in these captures.")
        return
    for line in _finding_lines(result):
        print(line)


def _finding_lines(result: FindingsResult) -> Iterator[str]:
    for f in result.findings:
        yield ""
        yield f"[{SEVERITY_MARK[f.severity.label]}] {f.title} ({f.id}), confidence {f.confidence:.0%}"
        yield f"  {f.summary}"
        if f.baseline:
            yield f"  {f.baseline}"
        for e in f.evidence:
            yield f"  - {e.label}: {e.text}"
        yield f"  view: {f.view.url()}"
        if f.next_checks:
            yield f"  next: {f.next_checks[0]}"
        if f.remediation:
            yield f"  fix: {f.remediation}"
