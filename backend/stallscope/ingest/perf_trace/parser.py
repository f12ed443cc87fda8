"""Stream `perf trace` output into SYSCALL (and TRACEPOINT) events, joining calls perf split in two.

perf prints a call when it returns; when another thread's line comes first, it prints the call's
start (`...` at the end) and later a `... [continued]: name())` line that repeats the start time and
adds the duration and result. Started calls wait per thread (a thread has one call in flight), so
memory is bounded by the number of threads. A call that never gets its continuation (the file ends,
or the thread's next call shows the exit was lost) is kept with `duration_ns=None`; a continuation
whose start line is missing keeps its time and duration but has no arguments. Both are counted in
a warning.

Tracepoint and probe events (`-e sched:sched_switch`) become TRACEPOINT events with their fields as
`args` and no duration; they neither start nor end a thread's call. perf's `LOST n events!` lines are
counted (`lost_events`) and reported once.

`--call-graph` output puts the call's frames, leaf first and deeply indented, under its line; they
become the event's stack. Times are milliseconds since the first event (RELATIVE), or since boot
with `-T` (the absolute importer). The syscall summary (`-S`) at the end is skipped.

The three common shapes are read with one regular expression each; `line.read_line` takes the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from stallscope.ingest.lost_events import LostEvents
from stallscope.ingest.model import EventKind, Frame, FrameKind, ParseError, ParseReport, Stack, TimedEvent
from stallscope.ingest.perf_script.naming import NamingOptions, name_frames, split_frame_line
from stallscope.ingest.perf_trace.line import (
    COMPLETE,
    CONTINUED,
    EVENT,
    LOST,
    STARTED,
    TraceLine,
    errno_of,
    ms_to_ns,
    read_line,
)
from stallscope.ingest.text_lines import TextLines, drop_line, note_cut_tail, reject_non_text

CALLCHAIN_INDENT = 16
MAX_CACHED_TEXTS = 50_000
MAX_LEADING_LINES = 20
_INDENT = b" " * CALLCHAIN_INDENT
_NAMING = NamingOptions()
_SYSCALL = EventKind.SYSCALL


@dataclass(slots=True)
class _Start:
    """A call whose start line has been read and whose end has not."""

    line: int
    time_ns: int | None
    comm: str
    tid: int | None
    name: str
    args: str | None
    frames: list[bytes] = field(default_factory=list)


_Held = tuple[TimedEvent | None, _Start | None]
"""What a line leaves waiting for callchain lines: a finished event, or a started call."""


def parse_perf_trace(stream: BinaryIO, report: ParseReport) -> Iterator[TimedEvent]:
    """Yield one SYSCALL event per call in `stream`'s `perf trace` output."""
    return _Parser(report).run(stream)


def is_callchain_line(raw: bytes) -> bool:
    return raw.startswith(_INDENT) and raw.rstrip().endswith(b")")


def _ns(whole: bytes, thousandths: bytes) -> int:
    """`12453`, `692` (perf's `%.3f` milliseconds, split at the dot) -> nanoseconds."""
    return int(whole + thousandths) * 1000


class _Parser:
    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self._started: dict[int | None, _Start] = {}
        self._text: dict[bytes, str] = {}
        self._frames: dict[bytes, tuple[Frame, ...]] = {}
        self._interned: dict[tuple[str, FrameKind], Frame] = {}
        self._calls = 0
        self._leading = 0
        self._lost_exits = 0
        self._orphans = 0
        self._in_summary = False
        self._lost: list[TimedEvent] = []
        self._lost_events = LostEvents()

    def run(self, stream: BinaryIO) -> Iterator[TimedEvent]:
        lines = TextLines(stream, comments=True)
        lost = self._lost  # events closed early (lost exits), yielded as soon as they appear
        # The event of the line before, held back because callchain lines may follow it.
        held: TimedEvent | None = None
        frames: list[bytes] = []
        frames_for: _Start | None = None  # a started call's frames go to the call instead
        for first, batch in lines.batches():
            if first == 1:
                reject_non_text(lines.head, "`perf trace`")
            for offset, raw in enumerate(batch):
                if raw.startswith(_INDENT) and is_callchain_line(raw):
                    if held is not None:
                        frames.append(raw)
                        continue
                    if frames_for is not None:
                        frames_for.frames.append(raw)
                        continue
                if held is not None:
                    if frames:
                        held.stack = self._stack(frames)
                        frames = []
                    yield held
                    held = None
                frames_for = None
                if self._in_summary:
                    continue
                number = first + offset
                if raw.endswith(b"..."):
                    frames_for = self._started_line(raw, number)
                elif b"[continued]" in raw:
                    held = self._continued_line(raw, number)
                elif raw.endswith(b")"):  # a tracepoint's fields (or an errno's text, more rarely)
                    held = self._event_line(raw, number) or self._complete_line(raw, number)
                else:
                    held = self._complete_line(raw, number)
                if held is None and frames_for is None:
                    held, frames_for = self._slow(lines, raw, number)
                if lost:
                    yield from lost
                    lost.clear()
        if held is not None:
            if frames:
                held.stack = self._stack(frames)
            yield held
        note_cut_tail(lines, self.report)
        for start in self._started.values():
            self._lost_exits += 1
            yield self._event(start, None, None, None)
        self._started.clear()
        self._final_warnings()

    # -- the common shapes --------------------------------------------------------------------------

    def _complete_line(self, raw: bytes, number: int) -> TimedEvent | None:
        match = COMPLETE.match(raw)
        if match is None:
            return None
        time_s, time_ms, dur_s, dur_ms, comm, tid, name, args, result = match.groups()
        tid_number = int(tid)
        if tid_number in self._started:
            self._lost_exit(tid_number)
        self._calls += 1
        return TimedEvent(
            number,
            _SYSCALL,
            self._decoded(name),
            _ns(time_s, time_ms),
            _ns(dur_s, dur_ms),
            None,
            tid_number,
            self._decoded(comm),
            None,
            None,
            (),
            None,
            args.decode("utf-8", "replace"),
            self._decoded(result),
            self._result_attrs(result),
        )

    def _event_line(self, raw: bytes, number: int) -> TimedEvent | None:
        """A tracepoint line (`_tracepoint`, in one match)."""
        match = EVENT.match(raw)
        if match is None:
            return None
        time_s, time_ms, comm, tid, name, args = match.groups()
        self._calls += 1
        return TimedEvent(
            number,
            EventKind.TRACEPOINT,
            self._decoded(name),
            _ns(time_s, time_ms),
            None,
            None,
            int(tid) if tid is not None else None,
            self._decoded(comm) if comm is not None else "",
            args=args.decode("utf-8", "replace") or None,
        )

    def _started_line(self, raw: bytes, number: int) -> _Start | None:
        match = STARTED.match(raw)
        if match is None:
            return None
        time_s, time_ms, comm, tid, name, args = match.groups()
        tid_number = int(tid)
        if tid_number in self._started:
            self._lost_exit(tid_number)
        start = _Start(
            number,
            _ns(time_s, time_ms),
            self._decoded(comm),
            tid_number,
            self._decoded(name),
            args.decode("utf-8", "replace"),
        )
        self._started[tid_number] = start
        return start

    def _continued_line(self, raw: bytes, number: int) -> TimedEvent | None:
        match = CONTINUED.match(raw)
        if match is None:
            return None
        time_s, time_ms, dur_s, dur_ms, comm, tid, name, result = match.groups()
        start = self._take_start(int(tid), self._decoded(name))
        if start is None:
            time_ns = _ns(time_s, time_ms)
            start = _Start(number, time_ns, self._decoded(comm), int(tid), self._decoded(name), None)
        # The continuation repeats the start time: the start line's is the same number.
        return self._event(start, None, _ns(dur_s, dur_ms), self._decoded(result), raw_result=result)

    # -- everything else ----------------------------------------------------------------------------

    def _slow(self, lines: TextLines, raw: bytes, number: int) -> _Held:
        """Lines the fast shapes miss: no duration column, no comm, `?` times, exit_group..."""
        trace = read_line(raw)
        if trace is None:
            self._other_line(lines, raw, number)
            return None, None
        return self._from_trace(trace, number)

    def _from_trace(self, trace: TraceLine, number: int) -> _Held:
        time_ns = ms_to_ns(trace.time_ms) if trace.time_ms is not None else None
        duration_ns = ms_to_ns(trace.duration_ms) if trace.duration_ms is not None else None
        if trace.shape == "event":
            return self._tracepoint(trace, number, time_ns), None
        if trace.shape == "continued":
            start = self._take_start(trace.tid, trace.name)
            if start is None:
                start = _Start(number, time_ns, trace.comm, trace.tid, trace.name, None)
            return self._event(start, time_ns, duration_ns, trace.result), None
        self._lost_exit(trace.tid)
        start = _Start(number, time_ns, trace.comm, trace.tid, trace.name, trace.args)
        if trace.shape == "started":
            self._started[trace.tid] = start
            return None, start
        if trace.shape == "complete" and trace.result != "?":
            return self._event(start, time_ns, duration_ns, trace.result), None
        event = self._event(start, time_ns, None, None)  # exit_group and friends never return (`= ?`)
        event.attrs["no_return"] = True
        return event, None

    def _tracepoint(self, trace: TraceLine, number: int, time_ns: int | None) -> TimedEvent:
        """An event line: an instant, whatever call its thread is in (it ends none)."""
        self._calls += 1
        return TimedEvent(
            number,
            EventKind.TRACEPOINT,
            trace.name,
            time_ns,
            None,
            None,
            trace.tid,
            trace.comm,
            args=trace.args or None,
        )

    def _take_start(self, tid: int | None, name: str) -> _Start | None:
        start = self._started.pop(tid, None)
        if start is not None and start.name != name:
            self._lost_exits += 1
            self._lost.append(self._event(start, None, None, None))
            start = None
        if start is None:
            self._orphans += 1
        return start

    def _lost_exit(self, tid: int | None) -> None:
        """A thread starts a new call while one is still open: the open one's exit was lost."""
        earlier = self._started.pop(tid, None)
        if earlier is not None:
            self._lost_exits += 1
            self._lost.append(self._event(earlier, None, None, None))

    def _event(
        self,
        start: _Start,
        time_ns: int | None,
        duration_ns: int | None,
        result: str | None,
        raw_result: bytes | None = None,
    ) -> TimedEvent:
        self._calls += 1
        if raw_result is not None:
            attrs = self._result_attrs(raw_result)
        else:
            errno = errno_of(result) if result else None
            attrs = {"errno": errno} if errno is not None else {}
        return TimedEvent(
            start.line,
            _SYSCALL,
            start.name,
            time_ns if time_ns is not None else start.time_ns,
            duration_ns,
            None,
            start.tid,
            start.comm,
            None,
            None,
            self._stack(start.frames) if start.frames else (),
            None,
            start.args,
            result,
            attrs,
        )

    # -- small helpers ------------------------------------------------------------------------------

    def _decoded(self, raw: bytes) -> str:
        """Comms, names and results repeat: decode each once."""
        text = self._text.get(raw)
        if text is None:
            text = raw.decode("utf-8", "replace")
            if len(self._text) < MAX_CACHED_TEXTS:
                self._text[raw] = text
        return text

    @staticmethod
    def _result_attrs(result: bytes) -> dict[str, object]:
        if result.startswith(b"-1 E"):
            errno = errno_of(result.decode("utf-8", "replace"))
            if errno is not None:
                return {"errno": errno}
        return {}

    def _stack(self, raw_frames: list[bytes]) -> Stack:
        frames: list[Frame] = []
        for raw in reversed(raw_frames):
            found = self._frames.get(raw)
            if found is None:
                if len(self._frames) >= MAX_CACHED_TEXTS:
                    self._frames.clear()
                found = self._frames[raw] = self._name(raw)
            frames.extend(found)
        return tuple(frames)

    def _name(self, raw: bytes) -> tuple[Frame, ...]:
        parts = split_frame_line("0 " + raw.decode("utf-8", "replace").strip())
        if parts is None:
            return ()
        address, func, module = parts
        if module == "[unknown]" and func.startswith("["):
            func = "[unknown]"  # perf trace prints an unresolved address as `[0]`
        named = name_frames(address, func, module, java=False, options=_NAMING)
        return tuple(self._frame(name, kind) for name, kind in named)

    def _frame(self, name: str, kind: FrameKind) -> Frame:
        found = self._interned.get((name, kind))
        if found is None:
            found = self._interned[(name, kind)] = Frame(name, kind)
        return found

    def _other_line(self, lines: TextLines, raw: bytes, number: int) -> None:
        text = raw.strip()
        if not text:
            return
        if text == b"Summary of events:":
            self._in_summary = True
            self.report.warn(number, "the syscall summary table from here on was skipped")
            return
        lost = LOST.match(text)
        if lost is not None:
            self._lost_events.add(number, None, int(lost.group("count")))
            return
        quoted = repr(text.decode("utf-8", "replace")[:120])
        if self._calls == 0 and not self._started:
            self._leading += 1
            if self._leading > MAX_LEADING_LINES:
                raise ParseError(
                    number,
                    "not `perf trace` output: expected lines such as "
                    f"`0.000 ( 0.046 ms): comm/1234 mmap(len: 8192) = 0x7f...`, found {quoted}",
                )
        drop_line(lines, self.report, number, f"not a syscall or event line, dropped: {quoted}")

    def _final_warnings(self) -> None:
        if self._calls == 0 and self._leading:
            raise ParseError(1, "not `perf trace` output: no syscall or event line in the file")
        self._lost_events.warn_lost(self.report, "perf")
        if self._lost_exits:
            self.report.warn(
                0,
                f"{self._lost_exits} call(s) never returned in the trace (the file ended, or the exit "
                "was lost); kept with no duration",
            )
        if self._orphans:
            self.report.warn(
                0, f"{self._orphans} `[continued]` line(s) had no start line; kept without their arguments"
            )
