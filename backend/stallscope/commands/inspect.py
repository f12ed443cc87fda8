"""`stallscope inspect FILE`: what a capture holds, before (or without) uploading it."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from stallscope.commands.local_file import read_stream
from stallscope.ingest.clock import ClockMapping, is_wall_clock
from stallscope.ingest.model import CaptureClock, ParseError, ParseReport, ParseWarning
from stallscope.ingest.tally import RecordTally


@dataclass(slots=True)
class Inspection:
    file: str
    format: str
    clock: CaptureClock
    compression: str
    tally: RecordTally
    report: ParseReport
    mapping: ClockMapping

    def _time_span(self) -> dict[str, Any] | None:
        tally = self.tally
        if tally.first_ns is None or tally.last_ns is None:
            return None
        span: dict[str, Any] = {
            "start_s": tally.first_ns / 1e9,
            "end_s": tally.last_ns / 1e9,
            "duration_s": (tally.last_ns - tally.first_ns) / 1e9,
            "clock": self.clock.value,
        }
        if is_wall_clock(self.mapping.mode):
            to_utc = self.mapping.to_timestamp()
            span["start_utc"] = to_utc(tally.first_ns).isoformat()
            span["end_utc"] = to_utc(tally.last_ns).isoformat()
            span["aligned_by"] = self.mapping.note
        return span

    def as_dict(self) -> dict[str, Any]:
        tally = self.tally
        return {
            "file": self.file,
            "format": self.format,
            "compression": self.compression,
            "records": {
                "samples": sum(tally.samples.values()),
                "events": sum(tally.events.values()),
                "unclosed_events": tally.unclosed_events,
                "metric_points": tally.metric_points,
                "metric_series": len(tally.series),
                "documents": tally.documents,
            },
            "sample_events": [{"name": n, "samples": c} for n, c in tally.samples.most_common()],
            "event_kinds": [{"kind": k, "events": c} for k, c in tally.events.most_common()],
            "threads": len(tally.threads),
            "processes": len(tally.processes),
            "distinct_stacks": len(tally.stacks),
            "time_span": self._time_span(),
            "dropped_lines": self.report.dropped_lines,
            "truncated": self.report.truncated,
            "warnings": [{"line": w.line, "message": w.message} for w in self.report.warnings],
            "suppressed_warnings": self.report.suppressed_warnings,
        }


def inspect_stream(name: str, raw: BinaryIO) -> Inspection:
    capture = read_stream(name, raw)
    tally = RecordTally()
    for record in capture.records():
        tally.add(record)
    return Inspection(
        name, capture.format, capture.clock, capture.compression.value, tally, capture.report, capture.mapping
    )


def _print_text(result: dict[str, Any]) -> None:
    records = result["records"]
    print(f"file:        {result['file']}")
    print(f"format:      {result['format']} ({result['compression']})")
    for label, key in (
        ("samples", "samples"),
        ("events", "events"),
        ("metric pts", "metric_points"),
        ("series", "metric_series"),
        ("documents", "documents"),
    ):
        if records[key]:
            print(f"{label + ':':13}{records[key]:,}")
    for event in result["sample_events"]:
        print(f"  event:     {event['name']}: {event['samples']:,} samples")
    for kind in result["event_kinds"]:
        print(f"  kind:      {kind['kind']}: {kind['events']:,} events")
    if records["unclosed_events"]:
        print(f"  unclosed:  {records['unclosed_events']:,} (no closing event before the file ended)")
    if result["threads"]:
        print(f"processes:   {result['processes']:,}")
        print(f"threads:     {result['threads']:,}")
    if result["distinct_stacks"]:
        print(f"stacks:      {result['distinct_stacks']:,} distinct")
    span = result["time_span"]
    if span and "start_utc" in span:
        print(f"time span:   {span['start_utc']} .. {span['end_utc']} ({span['duration_s']:.3f} s)")
    elif span:
        print(
            f"time span:   {span['start_s']:.6f} .. {span['end_s']:.6f} s ({span['duration_s']:.3f} s, "
            f"{span['clock']} clock; not aligned to wall time)"
        )
    else:
        print("time span:   none (the file has no times)")
    if result["truncated"]:
        print("truncated:   yes: the file ends early or mid-record (killed while writing? see the warnings)")
    print(f"dropped:     {result['dropped_lines']:,} lines")
    for warning in result["warnings"]:
        print(f"  warning:   {ParseWarning(warning['line'], warning['message'])}")
    if result["suppressed_warnings"]:
        print(f"  ... and {result['suppressed_warnings']:,} more warnings")


def run_inspect(path: Path, as_json: bool) -> int:
    try:
        with open(path, "rb") as raw:
            result = inspect_stream(str(path), raw).as_dict()
    except (ParseError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if as_json:
            line = exc.line if isinstance(exc, ParseError) else 0
            print(json.dumps({"file": str(path), "error": reason, "line": line}))
        else:
            print(f"stallscope: {path}: {reason}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        _print_text(result)
    return 0
