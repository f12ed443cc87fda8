"""`stallscope heatmap FILE`: the sub-second heatmap of a capture file, without a server."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from stallscope.analysis.clock_notes import own_clock_note
from stallscope.analysis.event_choice import default_event
from stallscope.analysis.heatmap import (
    COUNT_UNITS,
    STREAMS,
    CellBins,
    Heatmap,
    HotCell,
    build_heatmap,
    row_width_us,
)
from stallscope.ingest.clock import on_capture_clock
from stallscope.ingest.model import CaptureClock, EventKind, ParseError, Record, Sample, TimedEvent
from stallscope.kit.units import is_time_unit, parse_duration_ns, weight_text, weight_unit

HELP = "sub-second heatmap of a capture file: seconds across, offset within the second down"
DESCRIPTION = (
    "Bin a capture's records by second (columns) and by offset within the second (rows), print the\n"
    "matrix shaded by count or summed duration, and list the hottest cells. Something that stalls\n"
    "every second at the same offset shows up as one dark row. Same analysis as the console's view.\n\n"
    "examples:\n"
    "  stallscope heatmap cpu.perf.txt.gz\n"
    "  stallscope heatmap trace.txt.gz --stream syscall --name fsync --value duration --rows 20\n"
    "  stallscope heatmap cpu.perf.txt.gz --offset 1763712000 --json > heatmap.json"
)
SHADES = " .:-=+*#%@"
MAX_WARNINGS_SHOWN = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments on its sub-parser."""
    parser.add_argument("file", type=Path, metavar="FILE")
    parser.add_argument("--rows", type=int, default=50, help="rows per second (default 50: 20 ms each)")
    parser.add_argument("--stream", choices=STREAMS, help="which records (default: the file's most numerous)")
    parser.add_argument(
        "--name", help="samples: the perf event (default: the most sampled); other streams: e.g. futex"
    )
    parser.add_argument("--state", help="off-cpu only: one scheduler state, e.g. D")
    parser.add_argument(
        "--value", choices=("count", "duration"), default="count", help="what a cell holds (default count)"
    )
    parser.add_argument("--top", type=int, default=10, help="hottest cells to list (default 10)")
    parser.add_argument(
        "--width", type=int, default=100, help="most columns to print; longer captures merge seconds (100)"
    )
    parser.add_argument(
        "--offset", help="add this to the file's times to make them wall-clock, e.g. 1763712000 or +2.5s"
    )
    parser.add_argument("--json", action="store_true", help="the matrix and the hot cells as JSON")


@dataclass(slots=True)
class StreamTally:
    """Cells of one (stream, name) pair, read in one pass over the file."""

    bins: CellBins
    records: int = 0
    unclosed: int = 0
    with_period: bool = True
    """Samples: every one had a period (then a clock event's weights are nanoseconds)."""


@dataclass(slots=True)
class FileBins:
    rows: int
    offset_ns: int
    by_key: dict[tuple[str, str], StreamTally] = field(default_factory=dict)
    untimed: int = 0
    own_clock_times: int = 0
    """Times below the epoch threshold: the capture's own clock (perf's seconds since boot)."""

    def _tally(self, stream: str, name: str) -> StreamTally:
        tally = self.by_key.get((stream, name))
        if tally is None:
            tally = self.by_key[(stream, name)] = StreamTally(CellBins(self.rows))
        return tally

    def _time(self, time_ns: int) -> int:
        """Epoch times (perf with `-k CLOCK_REALTIME`) as they are; others shifted by --offset."""
        if not on_capture_clock(time_ns):
            return time_ns
        self.own_clock_times += 1
        return time_ns + self.offset_ns

    def add(self, record: Record) -> None:
        if isinstance(record, Sample):
            if record.time_ns is None:
                self.untimed += 1
                return
            tally = self._tally("samples", record.event)
            tally.with_period &= record.period is not None
            tally.bins.add_ns(self._time(record.time_ns), record.weight)
            tally.records += 1
        elif isinstance(record, TimedEvent):
            if record.start_ns is None:
                self.untimed += 1
                return
            off_cpu = record.kind is EventKind.OFF_CPU
            tally = self._tally(record.kind.value, (record.state or "?") if off_cpu else record.name)
            tally.bins.add_ns(self._time(record.start_ns), record.duration_ns)
            tally.records += 1
            tally.unclosed += record.duration_ns is None

    def stream_counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for (stream, _), tally in self.by_key.items():
            counts[stream] += tally.records
        return counts


class Refusal(Exception):
    """The request cannot be answered for this file; the message says why and what to try."""


def _selected(bins: FileBins, args: argparse.Namespace) -> tuple[str, str | None, list[StreamTally], str]:
    """The stream, the name shown, the tallies it sums, and the unit of a cell's value."""
    counts = bins.stream_counts()
    present = ", ".join(f"{s} ({n:,})" for s, n in counts.most_common()) or "none"
    stream = args.stream or (counts.most_common(1)[0][0] if counts else None)
    if stream is None or counts[stream] == 0:
        hint = {
            "syscall": " (record with perf trace or the collector's --syscalls)",
            "off-cpu": " (record scheduler switches: perf record -e sched:sched_switch)",
        }.get(stream or "", "")
        raise Refusal(f"no {stream or 'timed'} records in {args.file}{hint}; streams present: {present}")
    keys = {name: tally for (s, name), tally in bins.by_key.items() if s == stream}
    name: str | None = args.state if stream == "off-cpu" else args.name
    if stream == "samples" and name is None:  # events are never summed: the console's default one
        name = default_event((n, tally.records) for n, tally in keys.items())
    if name is not None and name not in keys:
        raise Refusal(
            f"no {stream} records named {name!r} in {args.file}; names present: {', '.join(sorted(keys))}"
        )
    tallies = list(keys.values()) if name is None else [keys[name]]
    if args.value == "count":
        return stream, name, tallies, COUNT_UNITS.get(stream, "events")
    if stream == "samples" and not is_time_unit(weight_unit(str(name), tallies[0].with_period)):
        raise Refusal(
            f"samples of {name} are counted, not timed: use --value count (durations need cpu-clock)"
        )
    return stream, name, tallies, "ns"


def _clock_note(bins: FileBins, clock: str, offset_given: bool) -> str | None:
    """None when columns are UTC seconds; otherwise what they are instead."""
    if bins.own_clock_times == 0 or offset_given:
        return None
    return own_clock_note(
        "this file's times are",
        relative=clock == CaptureClock.RELATIVE.value,
        align="pass --offset (or record with `perf record -k CLOCK_REALTIME`)",
    )


def _second_label(second: int, wall_clock: bool) -> str:
    if wall_clock:
        return datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    return f"{second} s"


def _ms(offset_us: int) -> str:
    return f"{offset_us / 1000:g} ms"


def _shade(value: int, peak: int) -> str:
    if value <= 0 or peak <= 0:
        return SHADES[0]
    return SHADES[max(1, math.ceil(value * (len(SHADES) - 1) / peak))]


def render_text(hm: Heatmap, summary: dict[str, Any]) -> str:
    """The matrix shaded with ` .:-=+*#%@` (rows down, seconds across), then the hottest cells."""
    unit, wall_clock = summary["unit"], summary["wall_clock"]
    lines = [
        f"{summary['file']}: {summary['format']}, stream {summary['stream']}"
        + (f" ({summary['name']})" if summary["name"] else "")
        + f", {hm.total_count:,} {summary['noun']}, value {hm.value}",
    ]
    if summary["clock_note"]:
        lines.append(f"clock: {summary['clock_note']}")
    lines += [f"note: {note}" for note in hm.notes]
    if hm.columns == 0:
        return "\n".join([*lines, "nothing to draw"]) + "\n"
    lines.append(
        f"{hm.rows} rows of {_ms(hm.row_us)} x {hm.columns} columns of {hm.column_seconds} s; "
        f"darkest cell {weight_text(hm.max, unit)}"
    )
    label_width = max(len(_ms(r * hm.row_us)) for r in range(hm.rows))
    pad = " " * (label_width + 1)
    lines.append("")
    for row in range(hm.rows):
        cells = "".join(_shade(hm.values[c][row], hm.max) for c in range(hm.columns))
        lines.append(f"{_ms(row * hm.row_us):>{label_width}} |{cells}|")
    lines.append(f"{pad}+{'-' * hm.columns}+")
    first = _second_label(hm.first_second, wall_clock)
    last = _second_label(hm.first_second + (hm.columns - 1) * hm.column_seconds, wall_clock)
    lines.append(f"{pad} ^ first column: {first}")
    if hm.columns > 1:
        lines.append(f"{pad} {' ' * (hm.columns - 1)}^ last column: {last}")
    lines.append(f"shades: '{SHADES}' from empty to {weight_text(hm.max, unit)}")
    if hm.hot:
        lines += ["", "hottest cells:"]
        rows = [_hot_line(h, hm.first_second, summary) for h in hm.hot]
        width = [max(len(r[i]) for r in rows) for i in range(2)]
        for i, (where, offsets, value) in enumerate(rows, 1):
            lines.append(f"{i:4}. {where:<{width[0]}}  {offsets:>{width[1]}}  {value}")
    return "\n".join(lines) + "\n"


def _hot_line(h: HotCell, first_second: int, summary: dict[str, Any]) -> tuple[str, str, str]:
    """(which seconds, which offsets, value) of a hot cell."""
    unit, wall_clock = summary["unit"], summary["wall_clock"]
    where = _second_label(h.second, wall_clock)
    if h.seconds > 1:
        where += f" .. {_second_label(h.second + h.seconds - 1, wall_clock)}"
    if wall_clock:
        where += f" (+{h.second - first_second} s)"
    value = weight_text(h.value, unit)
    if unit == "ns":
        value += f" ({h.count:,} {summary['noun']})"
    return where, f"{_ms(h.offset_start_us)}..{_ms(h.offset_end_us)}", value


def as_json(hm: Heatmap, summary: dict[str, Any]) -> dict[str, Any]:
    shaped = asdict(hm)
    if hm.value == "count":
        shaped.pop("counts")
    return {**summary, **shaped}


def run(args: argparse.Namespace) -> int:
    from stallscope.commands.local_file import open_local_capture

    try:
        row_width_us(args.rows)
        offset_ns = parse_duration_ns(args.offset) if args.offset else 0
        if args.top < 0 or args.width < 1:
            raise ValueError("--top must be 0 or more and --width at least 1")
    except ValueError as exc:
        print(f"stallscope heatmap: {exc}", file=sys.stderr)
        return 2
    bins = FileBins(args.rows, offset_ns)
    try:
        with open_local_capture(args.file) as capture:
            for record in capture.records():
                bins.add(record)
            file_format, clock = capture.format, capture.clock.value
        for warning in capture.report.warnings[:MAX_WARNINGS_SHOWN]:  # such as a cut-off gzip stream
            print(f"stallscope heatmap: {args.file}: {warning}", file=sys.stderr)
        stream, name, tallies, unit = _selected(bins, args)
    except (ParseError, Refusal) as exc:
        print(f"stallscope heatmap: {args.file}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"stallscope heatmap: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    cells = [cell for tally in tallies for cell in tally.bins.cells()]
    hm = build_heatmap(cells, args.rows, args.value, max_columns=args.width, top=args.top)
    unclosed = sum(t.unclosed for t in tallies)
    if unclosed and args.value == "duration":
        hm.notes.append(f"{unclosed:,} intervals never ended in the capture: counted, but add no duration")
    if bins.untimed:
        hm.notes.append(f"{bins.untimed:,} records have no time and are left out")
    note = _clock_note(bins, clock, args.offset is not None)
    summary: dict[str, Any] = {
        "file": str(args.file),
        "format": file_format,
        "stream": stream,
        "name": name,
        "unit": unit,
        "noun": COUNT_UNITS.get(stream, "events"),
        "wall_clock": note is None,
        "clock_note": note,
        "unclosed": unclosed,
        "streams": dict(bins.stream_counts().most_common()),
    }
    if args.json:
        print(json.dumps(as_json(hm, summary), indent=1))
    else:
        sys.stdout.write(render_text(hm, summary))
    return 0
