"""Stream ftrace text: function_graph output, or event lines from `trace-cmd report` / the trace file.

The first line with content decides which: an event line (`comm-tid [cpu] time: event: ...`) or a
function_graph line (`cpu) duration | body`, or `cpu) body` without the duration column). Comment
lines (`# tracer: ...`), the few lines trace-cmd prints before the events (`cpus=2`, `version = 6`,
`CPU 0 is empty`) and perf-tools' `Tracing "..."... Ctrl-C to end.` / `Ending tracing...` are
skipped. `CPU:1 [LOST 12 EVENTS]` lines are counted per CPU and reported once (`lost_events`).
Times are on the trace clock, seconds since boot with the default `local` clock (or `mono`):
MONOTONIC.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import chain, islice
from typing import BinaryIO

from stallscope.ingest.ftrace.event_line import EVENT, is_frame_line
from stallscope.ingest.ftrace.events import EventTracker
from stallscope.ingest.ftrace.graph import FLUSH_EVENTS, BareLine, GraphTracker, Who
from stallscope.ingest.ftrace.graph_line import (
    CONTEXT_SWITCH,
    LOST_EVENTS,
    NO_DURATION,
    PROLOGUE,
    Body,
    read_body,
    seconds_to_ns,
    split_task,
    us_to_ns,
)
from stallscope.ingest.lost_events import LostEvents
from stallscope.ingest.model import ParseError, ParseReport, TimedEvent
from stallscope.ingest.text_lines import TextLines, drop_line, note_cut_tail, reject_non_text

_HEADER = re.compile(
    rb'\s*(?:#|cpus=\d|version = |CPU \d+ is empty|trace-cmd: |Tracing ".*\.\.\.|Ending tracing\.\.\.)'
)
_DASHES = re.compile(rb"\s*-{10,}\s*\Z")
_ARROWS = (b"==========>", b"<==========")
GLOBAL_KEY = "all"
MAX_CACHED_BODIES = 200_000
DEFAULT_COLUMNS = re.compile(rb" *(\d{1,4})\) +(?:[+!#*@$] +)?(?:(\d{1,15}(?:\.\d+)?) us +)?")
"""The default layout's columns before the first `|` (CPU and duration only); `PROLOGUE` reads them all."""
MAX_CACHED_COLUMNS = 100_000
MAX_CPU_DIGITS = 4
"""As `graph_line`'s patterns read the CPU column: a longer number is not a CPU."""


def parse_ftrace(stream: BinaryIO, report: ParseReport) -> Iterator[TimedEvent]:
    """Yield FUNCTION events (function_graph) or TRACEPOINT events (event lines) from `stream`."""
    # Events are handed over a list at a time: chaining the lists adds no generator step per event.
    return chain.from_iterable(_Parser(report, TextLines(stream)).run())


def _read_bare_line(raw: bytes) -> BareLine | tuple[()]:
    """` 1)   name();` (no duration column, nothing else) -> the CPU column's text and the body's
    fields, or () for any other line (`_graph_slow` reads it)."""
    cut = raw.find(b") ")
    cpu = raw[:cut].lstrip(b" ")
    if cut <= 0 or not cpu.isdigit() or len(cpu) > MAX_CPU_DIGITS or b"|" in raw:
        return ()
    body = read_body(raw[cut + 2 :], lead=0)
    return () if body is None else (raw[:cut], body.shape, body.depth, body.name, body.retval)


def _read_columns(head: bytes) -> tuple[bytes, int | None] | tuple[()]:
    """The CPU column's text and the duration of the default layout's columns; () for any other."""
    match = DEFAULT_COLUMNS.fullmatch(head)
    if match is None:
        return ()
    cpu_text, duration = match.groups()
    # Three decimals at most, far below 2**53: rounding recovers the exact nanoseconds.
    return cpu_text, round(float(duration) * 1000) if duration is not None else None


def is_header(raw: bytes) -> bool:
    return not raw.strip() or _HEADER.match(raw) is not None


def is_graph_line(raw: bytes) -> bool:
    """A function_graph line with a call or a comment in it (banners and arrows are not), in either
    layout: with the duration column or without it."""
    prologue = PROLOGUE.match(raw)
    if prologue is not None and read_body(prologue.group("body")) is not None:
        return True
    bare = NO_DURATION.match(raw)
    return bare is not None and read_body(bare.group("body"), lead=0) is not None


def is_lost_events(raw: bytes) -> bool:
    return LOST_EVENTS.match(raw) is not None


def is_graph_banner(raw: bytes) -> bool:
    """The dashed lines and `cpu) prev => next` line around a context switch, interrupt arrows."""
    return bool(_DASHES.match(raw) or CONTEXT_SWITCH.match(raw)) or any(arrow in raw for arrow in _ARROWS)


class _Parser:
    def __init__(self, report: ParseReport, lines: TextLines) -> None:
        self.report = report
        self._lines = lines
        self.graph = GraphTracker()
        self.events = EventTracker(report, self.graph)
        self._mode: str | None = None
        self._tasks: dict[int, tuple[str, int]] = {}  # cpu -> task, from context-switch banners
        self._orphan_frames = 0
        self._bodies: dict[bytes, Body | None] = {}
        self._bare_lines: dict[bytes, BareLine | tuple[()]] = {}  # `cpu) body` lines
        self._who: dict[bytes, tuple[Who, object]] = {}  # by the CPU column's text
        self._cpu_texts: dict[bytes, bytes] = {}  # one object per CPU column text (a few)
        self._columns: dict[bytes, tuple[bytes, int | None] | tuple[()]] = {}
        self._lost = LostEvents()

    def run(self) -> Iterator[list[TimedEvent]]:
        lines = self._lines
        graph_out, event_out = self.graph.out, self.events.out
        for first, batch in lines.batches():
            if first == 1:
                reject_non_text(lines.head, "ftrace")
            for offset, raw in enumerate(batch):
                mode = self._mode
                if mode is None and not is_header(raw):
                    if self._lost_events(raw, first + offset):
                        continue  # a reader that fell behind from the start: before any record
                    mode = self._mode = self._choose(raw, first + offset)
                if mode == "graph":
                    yield from self._graph_lines(batch, first, offset)
                    break
                if mode == "events":
                    self._event_line(raw, first + offset)
                # Each line's events in order, the graph tracker's first (as the trackers fill them).
                if graph_out:
                    yield graph_out
                    graph_out.clear()
                if event_out:
                    yield event_out
                    event_out.clear()
        note_cut_tail(lines, self.report)
        self.events.finish()
        self.graph.finish()
        yield event_out
        yield graph_out
        self._final_warnings()

    @staticmethod
    def _choose(raw: bytes, number: int) -> str:
        """The mode the first line with content sets (the caller reads that line in it)."""
        if EVENT.match(raw) is not None:
            return "events"
        if is_graph_line(raw) or is_graph_banner(raw):
            return "graph"
        text = raw.decode("utf-8", "replace").strip()[:120]
        raise ParseError(
            number,
            "not ftrace text: expected `comm-tid [cpu] time: event: ...` lines (trace-cmd report) "
            f"or function_graph lines (`0)   1.382 us    |  func();`), found {text!r}",
        )

    # -- event lines --------------------------------------------------------------------------------

    def _event_line(self, raw: bytes, number: int) -> None:
        if is_frame_line(raw):
            if not self.events.frame(raw):
                self._orphan_frames += 1
            return
        self.events.end_stack()
        match = EVENT.match(raw)
        if match is not None:
            comm, tid, tgid, cpu, _, time, name, rest = match.groups()
            pid = int(tgid) if tgid is not None and tgid[-1:].isdigit() else None
            self.events.event(number, comm, int(tid), pid, int(cpu), time, name, rest)
            return
        if not self._lost_events(raw, number) and not is_header(raw):
            self._drop(raw, number)

    # -- function_graph lines -----------------------------------------------------------------------

    def _graph_lines(self, batch: list[bytes], first: int, start: int) -> Iterator[list[TimedEvent]]:
        """Lines `start` on of a batch of function_graph output; a few dozen events at a time.

        The columns before the first `|` (CPU, duration mark, duration) repeat from line to line,
        as do the bodies after it: each distinct text is read once. Without the duration column
        (` 0)   name();`, `funcgraph -D`) whole lines repeat, and each is read once; a run of such
        lines goes to `GraphTracker.untimed_lines` in one call. Other layouts (absolute times, the
        comm-pid column) go `_graph_slow`.
        """
        columns_of, bodies, who_on, line = self._columns, self._bodies, self._who, self.graph.line
        bare_lines, untimed_lines = self._bare_lines, self.graph.untimed_lines
        out = self.graph.out
        numbered = enumerate(islice(batch, start, None), first + start)
        for number, raw in numbered:
            head, bar, body_text = raw.partition(b"|")
            if bar:
                columns = columns_of.get(head)
                if columns is None:
                    columns = _read_columns(head)  # () for another layout: falls through below
                    if len(columns_of) >= MAX_CACHED_COLUMNS:
                        columns_of.clear()
                    columns_of[head] = columns
                if columns:
                    body = bodies.get(body_text)
                    if body is None and body_text not in bodies:
                        body = read_body(body_text)
                        if len(bodies) < MAX_CACHED_BODIES:
                            bodies[body_text] = body
                    if body is not None:
                        cpu_text, duration_ns = columns
                        found = who_on.get(cpu_text)
                        if found is None:
                            found = who_on[cpu_text] = self._who_on(int(cpu_text))
                        line(number, found[1], found[0], None, duration_ns, body)
                        if len(out) >= FLUSH_EVENTS:
                            yield out
                            out.clear()
                        continue
            else:  # no duration column: with nothing else on the line, the whole line repeats
                bare = bare_lines.get(raw)
                if bare is None:
                    bare = _read_bare_line(raw)
                    if bare:  # one object per CPU column text: `untimed_lines` compares identities
                        bare = (self._cpu_texts.setdefault(bare[0], bare[0]), *bare[1:])
                    if len(bare_lines) >= MAX_CACHED_BODIES:
                        bare_lines.clear()
                    bare_lines[raw] = bare
                if bare:
                    cpu_text = bare[0]
                    if cpu_text not in who_on:
                        who_on[cpu_text] = self._who_on(int(cpu_text))
                    # This line and the known lines after it, in one call.
                    index = number - first
                    done = untimed_lines(batch, index, first, bare_lines, who_on)
                    if done > index + 1:
                        next(islice(numbered, done - index - 2, None), None)  # skip the others
                    if len(out) >= FLUSH_EVENTS:
                        yield out
                        out.clear()
                    continue
            self._graph_slow(raw, number)
        if out:
            yield out
            out.clear()

    def _who_on(self, cpu: int) -> tuple[Who, object]:
        """Who runs on `cpu` (as the last context-switch banner said) and the key of its call stack."""
        task = self._tasks.get(cpu)
        return (Who(cpu, task[0], task[1]), task[1]) if task else (Who(cpu), -1 - cpu)

    def _graph_slow(self, raw: bytes, number: int) -> None:
        """Every column layout: absolute times, the comm-pid column, no CPU or no duration column."""
        prologue = PROLOGUE.match(raw)
        if prologue is not None:
            absolute, cpu_text, proc, _, duration, body_text = prologue.groups()
            body = read_body(body_text)
        else:
            bare = NO_DURATION.match(raw)
            if bare is None:
                self._graph_other(raw, number)
                return
            absolute, cpu_text, proc, body_text = bare.groups()
            duration, body = None, read_body(body_text, lead=0)
        if body is None:
            self._graph_other(raw, number)
            return
        cpu = int(cpu_text) if cpu_text is not None else None
        key: object
        if proc is not None:
            comm, tid = split_task(proc)
            who, key = Who(cpu, comm, tid), tid
        elif cpu is not None and cpu in self._tasks:
            comm, tid = self._tasks[cpu]
            who, key = Who(cpu, comm, tid), tid
        else:
            who, key = Who(cpu), (GLOBAL_KEY if cpu is None else -1 - cpu)
        time_ns = seconds_to_ns(absolute) if absolute is not None else None
        duration_ns = us_to_ns(duration) if duration is not None else None
        self.graph.line(number, key, who, time_ns, duration_ns, body)

    def _graph_other(self, raw: bytes, number: int) -> None:
        if is_header(raw) or _DASHES.match(raw) or any(arrow in raw for arrow in _ARROWS):
            return  # banner lines; the context-switch line itself is read below
        switch = CONTEXT_SWITCH.match(raw)
        if switch is not None:
            cpu = int(switch.group("cpu"))
            prev, nxt = split_task(switch.group("prev")), split_task(switch.group("next"))
            if cpu not in self._tasks:
                self.graph.rekey(-1 - cpu, prev[1])  # until now this CPU's task was unnamed
            self._tasks[cpu] = nxt
            self._who.clear()
            return
        if not self._lost_events(raw, number):
            self._drop(raw, number)

    # -- shared -------------------------------------------------------------------------------------

    def _lost_events(self, raw: bytes, number: int) -> bool:
        lost = LOST_EVENTS.match(raw)
        if lost is None:
            return False
        cpu, count = int(lost.group("cpu")), int(lost.group("count"))
        self._lost.add(number, cpu, count)
        task = self._tasks.get(cpu)
        self.graph.drop([task[1] if task else -1 - cpu])
        return True

    def _drop(self, raw: bytes, number: int) -> None:
        text = raw.decode("utf-8", "replace").strip()[:120]
        drop_line(self._lines, self.report, number, f"not an ftrace line, dropped: {text!r}")

    def _final_warnings(self) -> None:
        self._lost.warn_lost(self.report, "ftrace")
        if self.graph.unclosed:
            self.report.warn(
                0, f"{self.graph.unclosed} function call(s) with no exit in the trace; kept with no duration"
            )
        if self.graph.exits_without_entry:
            self.report.warn(
                0,
                f"{self.graph.exits_without_entry} function exit(s) whose entry is not in the trace; their "
                "callers before the trace began are unknown",
            )
        if self.events.orphan_stacks or self._orphan_frames:
            self.report.warn(
                0,
                f"{self.events.orphan_stacks} stack trace(s) not following an event of the same task on "
                f"their CPU ({self._orphan_frames} frame lines) were dropped",
            )
        self.report.dropped_lines += self._orphan_frames
