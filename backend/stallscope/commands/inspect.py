"""`stallscope inspect FILE`: what a capture holds, before (or without) uploading it."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.registry import HEAD_BYTES, detect_importer
from stallscope.ingest.sample_store import SampleTally
from stallscope.kit.compression import Compression, decompressing_reader, sniff_compression
from stallscope.kit.readers import PrefixedReader, read_head


@dataclass(slots=True)
class Inspection:
    file: str
    format: str
    compression: str
    tally: SampleTally
    stacks: int
    report: ParseReport

    def as_dict(self) -> dict[str, Any]:
        tally = self.tally
        span = None
        if tally.first_ns is not None and tally.last_ns is not None:
            span = {
                "start_s": tally.first_ns / 1e9,
                "end_s": tally.last_ns / 1e9,
                "duration_s": (tally.last_ns - tally.first_ns) / 1e9,
                "clock": "capture clock (perf: seconds since boot); not aligned to wall time",
            }
        return {
            "file": self.file,
            "format": self.format,
            "compression": self.compression,
            "samples": tally.samples,
            "events": [{"name": n, "samples": c} for n, c in tally.events.most_common()],
            "threads": len(tally.threads),
            "processes": len(tally.processes),
            "distinct_stacks": self.stacks,
            "time_span": span,
            "dropped_lines": self.report.dropped_lines,
            "truncated": self.report.truncated,
            "warnings": [{"line": w.line, "message": w.message} for w in self.report.warnings],
            "suppressed_warnings": self.report.suppressed_warnings,
        }


def inspect_stream(name: str, raw: BinaryIO) -> Inspection:
    compression = (
        sniff_compression(raw.peek(4)[:4]) if isinstance(raw, io.BufferedReader) else Compression.NONE
    )
    stream = decompressing_reader(raw, compression)
    head = read_head(stream, HEAD_BYTES)
    importer = detect_importer(head)
    report = ParseReport()
    tally = SampleTally()
    stacks: set[object] = set()
    text = io.BufferedReader(PrefixedReader(head, stream), buffer_size=1 << 20)
    for sample in importer.parse(text, report):
        tally.add(sample)
        stacks.add(sample.stack)
    return Inspection(name, importer.name, compression.value, tally, len(stacks), report)


def _print_text(result: dict[str, Any]) -> None:
    print(f"file:        {result['file']}")
    print(f"format:      {result['format']} ({result['compression']})")
    print(f"samples:     {result['samples']:,}")
    for event in result["events"]:
        print(f"  event:     {event['name']}: {event['samples']:,} samples")
    print(f"processes:   {result['processes']:,}")
    print(f"threads:     {result['threads']:,}")
    print(f"stacks:      {result['distinct_stacks']:,} distinct")
    span = result["time_span"]
    if span:
        print(
            f"time span:   {span['start_s']:.6f} .. {span['end_s']:.6f} s ({span['duration_s']:.3f} s, "
            f"{span['clock']})"
        )
    else:
        print("time span:   none (the file has no time field)")
    if result["truncated"]:
        print("truncated:   yes: the file ends mid-sample (perf killed while writing?)")
    print(f"dropped:     {result['dropped_lines']:,} lines")
    for warning in result["warnings"]:
        print(f"  warning:   line {warning['line']}: {warning['message']}")
    if result["suppressed_warnings"]:
        print(f"  ... and {result['suppressed_warnings']:,} more warnings")


def run_inspect(path: Path, as_json: bool) -> int:
    try:
        with open(path, "rb") as raw:
            result = inspect_stream(str(path), raw).as_dict()
    except ParseError as exc:
        if as_json:
            print(json.dumps({"file": str(path), "error": str(exc), "line": exc.line}))
        else:
            print(f"stallscope: {path}: {exc}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        _print_text(result)
    return 0
