"""`stallscope diff A B`: which functions changed between two capture files, without a server.

The files are read by the importers the server runs and compared by the analysis its diff view
runs (`stallscope.analysis.diff`), so the numbers match what the console shows for the same data.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stallscope.kit.units import is_time_unit, weight_text

if TYPE_CHECKING:
    from stallscope.analysis.diff import DiffResult, FunctionDelta, WeightedStack
    from stallscope.commands.local_file import LocalCapture
    from stallscope.ingest.model import Stack

HELP = "compare two capture files: functions by self and total change, B against A"
DESCRIPTION = """\
Compare two capture files without a server: which functions take more, or less, of B than of A,
by self weight (the function itself) and total weight (the function and what it calls; counted
once per stack even when it recurses). The analysis is the console's diff view's.

Inputs: `perf script` CPU samples, `perf script` of scheduler tracepoints (off-CPU time), or
collapsed stacks; plain, .gz or .zst. Weights are CPU sample periods (time for cpu-clock; samples
when the file prints no period) or, for scheduler captures, blocked time; --json gives them raw, in
the unit it names. Different events are never summed: without --event, the event sampled most over
both files is compared, as in the console.

With --normalize total (the default) A is scaled to B's total before subtracting, so a delta is a
change in share, in B's units; --normalize none subtracts raw weights.

examples:
  stallscope diff before.perf.txt.gz after.perf.txt.gz
  stallscope diff healthy.sched.txt.zst impacted.sched.txt.zst --state D --top 10
  stallscope diff a.txt b.txt --normalize none --json | jq '.by_total[:5]'"""

SCHED_FORMAT = "perf-sched"
MAX_WARNINGS_SHOWN = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments on its sub-parser."""
    parser.add_argument("a", type=Path, metavar="A", help="the baseline capture file")
    parser.add_argument("b", type=Path, metavar="B", help="the capture compared with it")
    parser.add_argument(
        "--normalize",
        choices=("total", "none"),
        default="total",
        help="total: scale A to B's total and compare shares (default); none: raw weights",
    )
    parser.add_argument("--top", type=_non_negative, default=20, help="functions per table (default 20)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--source",
        choices=("cpu", "off-cpu"),
        help="CPU samples or off-CPU time (default: off-cpu for scheduler captures, cpu otherwise)",
    )
    parser.add_argument("--state", metavar="S", help="off-CPU only: one scheduler state, e.g. D")
    parser.add_argument("--event", metavar="NAME", help="CPU only: the event to compare, e.g. cycles")


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


class InputError(Exception):
    """A problem with what was asked for, reported as one line naming the file."""


@dataclass(slots=True)
class Side:
    """One file's weights by (process, stack), per CPU event or summed over off-CPU intervals."""

    label: str
    path: Path
    format: str = ""
    by_event: dict[str, dict[tuple[str, int], list[int]]] = field(default_factory=dict)
    """event -> (comm, id(stack)) -> [weight, samples]; off-CPU time is kept under "" in ns."""
    stacks: dict[int, Stack] = field(default_factory=dict)
    """Keeps each stack object, hence its id, alive; the parsers intern equal stacks."""
    with_period: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)

    def add(self, event: str, comm: str, stack: Stack, weight: int) -> None:
        counts = self.by_event.setdefault(event, {})
        key = (comm, id(stack))
        found = counts.get(key)
        if found is None:
            counts[key] = [weight, 1]
            self.stacks[id(stack)] = stack
        else:
            found[0] += weight
            found[1] += 1

    def samples(self, event: str) -> int:
        return sum(n for _, n in self.by_event.get(event, {}).values())

    def weighted_stacks(self, event: str, off_cpu: bool) -> Iterator[WeightedStack]:
        from stallscope.analysis.diff import WeightedStack

        for (comm, stack_id), (weight, samples) in self.by_event.get(event, {}).items():
            names = (comm, *(frame.name for frame in self.stacks[stack_id]))
            # Microseconds rounded from the summed nanoseconds, as the server's query rounds them.
            yield WeightedStack(names, (weight + 500) // 1000 if off_cpu else weight, samples)


def _read(side: Side, capture: LocalCapture, off_cpu: bool, state: str | None) -> None:
    from stallscope.ingest.model import EventKind, Sample, TimedEvent

    for record in capture.records():
        if off_cpu:
            if (
                isinstance(record, TimedEvent)
                and record.kind is EventKind.OFF_CPU
                and record.duration_ns is not None
                and (state is None or record.state == state)
            ):
                side.add("", record.comm, record.stack, record.duration_ns)
        elif isinstance(record, Sample):
            side.add(record.event, record.comm, record.stack, record.weight)
            if record.period is not None:
                side.with_period.add(record.event)
    report = capture.report
    for warning in report.warnings[:MAX_WARNINGS_SHOWN]:
        side.warnings.append(str(warning))
    hidden = len(report.warnings) - MAX_WARNINGS_SHOWN + report.suppressed_warnings
    if hidden > 0:
        side.warnings.append(f"{hidden} more warnings (see `stallscope inspect`)")


def _choose_source(args: argparse.Namespace, a: LocalCapture, b: LocalCapture) -> str:
    if args.source:
        return str(args.source)
    sched = {side: capture.format == SCHED_FORMAT for side, capture in (("A", a), ("B", b))}
    if sched["A"] != sched["B"]:
        which, other = ("A", "B") if sched["A"] else ("B", "A")
        raise InputError(
            f"{which} is a scheduler capture (off-CPU time) and {other} is not: "
            "choose what to compare with --source cpu or --source off-cpu"
        )
    return "off-cpu" if sched["A"] else "cpu"


def _choose_event(requested: str | None, a: Side, b: Side) -> str:
    """The requested event, else the console's default over both files (`analysis.event_choice`)."""
    from stallscope.analysis.event_choice import default_event
    from stallscope.ingest.perf_script.header import normalise_event

    counts = [(event, side.samples(event)) for side in (a, b) for event in side.by_event]
    if requested is not None:
        event = normalise_event(requested)
        if event not in {name for name, _ in counts}:
            known = ", ".join(sorted({name for name, _ in counts})) or "none"
            raise InputError(f"neither file has samples of event {event!r} (events: {known})")
        return event
    chosen = default_event(counts)
    if chosen is None:
        raise InputError(f"neither {a.path} nor {b.path} has CPU samples")
    return chosen


def _unit(source: str, event: str, a: Side, b: Side) -> str:
    from stallscope.kit.units import view_unit, weight_unit

    return view_unit(source, weight_unit(event, event in a.with_period or event in b.with_period))


def run(args: argparse.Namespace) -> int:
    from stallscope.analysis.diff import diff_stacks, top_functions
    from stallscope.commands.local_file import open_local_capture

    unreadable = _file_errors()
    a, b = Side("A", args.a), Side("B", args.b)
    try:
        with ExitStack() as files:
            captures = []
            for side in (a, b):
                try:
                    capture = files.enter_context(open_local_capture(side.path))
                except unreadable as exc:
                    raise InputError(f"{side.path}: {_reason(exc)}") from exc
                side.format = capture.format
                captures.append(capture)
            source = _choose_source(args, captures[0], captures[1])
            off_cpu = source == "off-cpu"
            for side, capture in zip((a, b), captures, strict=True):
                try:
                    _read(side, capture, off_cpu, args.state)
                except unreadable as exc:
                    raise InputError(f"{side.path}: {_reason(exc)}") from exc
        event = "" if off_cpu else _choose_event(args.event, a, b)
    except InputError as exc:
        print(f"stallscope diff: {exc}", file=sys.stderr)
        return 1
    for side in (a, b):
        for warning in side.warnings:
            print(f"stallscope diff: {side.path}: {warning}", file=sys.stderr)
    result = diff_stacks(
        a.weighted_stacks(event, off_cpu), b.weighted_stacks(event, off_cpu), normalize=args.normalize
    )
    report = Report(
        a=a,
        b=b,
        source=source,
        event=event or None,
        state=args.state if off_cpu else None,
        unit=_unit(source, event, a, b),
        result=result,
        by_total=top_functions(result.functions, args.top, "total"),
        by_self=top_functions(result.functions, args.top, "self"),
    )
    for side, total in ((a, result.total_a), (b, result.total_b)):
        if total == 0:
            print(f"stallscope diff: {side.path}: nothing to compare ({report.what})", file=sys.stderr)
    if args.json:
        json.dump(report.as_dict(), sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print("\n".join(report.text_lines()))
    return 0


def _file_errors() -> tuple[type[Exception], ...]:
    """What a missing, unreadable, corrupt or unrecognised file raises."""
    import zlib

    import zstandard

    from stallscope.ingest.model import ParseError

    return (OSError, EOFError, ParseError, zlib.error, zstandard.ZstdError)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


@dataclass(frozen=True, slots=True)
class Report:
    a: Side
    b: Side
    source: str
    event: str | None
    state: str | None
    unit: str
    result: DiffResult
    by_total: list[FunctionDelta]
    by_self: list[FunctionDelta]

    @property
    def what(self) -> str:
        if self.source == "off-cpu":
            return "off-CPU time" + (f" in state {self.state}" if self.state else "")
        return f"CPU samples of {self.event}"

    def _side(self, side: Side, total: int, samples: int) -> dict[str, Any]:
        return {"file": str(side.path), "format": side.format, "total": total, "samples": samples}

    def as_dict(self) -> dict[str, Any]:
        result = self.result
        return {
            "a": self._side(self.a, result.total_a, result.samples_a),
            "b": self._side(self.b, result.total_b, result.samples_b),
            "source": self.source,
            "event": self.event,
            "state": self.state,
            "unit": self.unit,
            "normalize": result.normalize,
            "scale": result.scale,
            "function_count": len(result.functions),
            "by_total": [f.as_dict() for f in self.by_total],
            "by_self": [f.as_dict() for f in self.by_self],
        }

    def text_lines(self) -> list[str]:
        result = self.result
        count = ("interval", "intervals") if self.source == "off-cpu" else ("sample", "samples")
        weights = "weighed by time" if is_time_unit(self.unit) else f"weights in {self.unit}"
        lines = [f"B against A: {self.what}, {weights}"]
        sides = [(self.a, result.total_a, result.samples_a), (self.b, result.total_b, result.samples_b)]
        names = [str(side.path) for side, _, _ in sides]
        totals = [weight_text(total, self.unit) for _, total, _ in sides]
        for (side, _, samples), name, total in zip(sides, names, totals, strict=True):
            lines.append(
                f"  {side.label}  {name.ljust(max(map(len, names)))}  "
                f"{total.rjust(max(map(len, totals)))} in {samples:,} {count[samples != 1]}"
            )
        if result.normalize == "total" and result.scale != 1:
            lines.append(
                f"  A scaled x{result.scale:.4g} to B's total: deltas are changes in share, in B's units"
            )
        elif result.normalize == "total":
            lines.append("  A not scaled (equal totals, or a side is empty)")
        else:
            lines.append("  raw weights (--normalize none)")
        a_label = "A (scaled)" if result.scale != 1 else "A"
        for title, rows, kind in (("total", self.by_total, "total"), ("self", self.by_self, "self")):
            lines += ["", f"Functions by {title} delta ({len(rows)} of {len(result.functions)})"]
            lines += _table(rows, kind, a_label, self.unit)
        return lines


def _number(value: float, unit: str) -> str:
    """Durations as people read them ('4.00 ms'); counts thousands separated, scaled ones keeping one
    decimal only where they are small."""
    if abs(value) < 0.05:
        return "0"
    if is_time_unit(unit):
        return weight_text(value, unit)
    if value == int(value) or abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def _change(a: float, b: float) -> str:
    if a == b:
        return "0%"
    if a == 0:
        return "new" if b else "-"
    if b == 0:
        return "gone"
    return f"{(b - a) / a * 100:+.1f}%"


def _table(rows: list[FunctionDelta], kind: str, a_label: str, unit: str) -> list[str]:
    if not rows:
        return ["  (no functions)"]
    cells = [(a_label, "B", "delta", "change", "function")]
    for f in rows:
        raw_a, b, delta = (
            (f.self_a, f.self_b, f.self_delta) if kind == "self" else (f.total_a, f.total_b, f.total_delta)
        )
        a = raw_a * f.scale  # shown scaled, so that A + delta = B
        signed = _number(delta, unit) if delta <= 0 else "+" + _number(delta, unit)
        cells.append((_number(a, unit), _number(b, unit), signed, _change(a, b), f.name))
    widths = [max(len(row[i]) for row in cells) for i in range(4)]
    return ["  " + "  ".join(row[i].rjust(widths[i]) for i in range(4)) + "  " + row[4] for row in cells]
