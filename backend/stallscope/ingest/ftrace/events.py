"""Event lines (`trace-cmd report`, the ftrace `trace` file) to TRACEPOINT events with their stacks.

A stack is recorded as an event of its own right after the event it belongs to, on the same CPU, but
`trace-cmd report` merges CPUs by time, so other CPUs' lines can come between. Each CPU therefore
holds back its last event until its next one: a `kernel_stack` (or `<stack trace>`) for the same task
in between is that event's stack, a `user_stack` its user part. Memory is one event per CPU.

`funcgraph_entry` / `funcgraph_exit` events (trace-cmd recording the function_graph tracer) carry the
graph text after the event name; they go to the graph tracker as FUNCTION events instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stallscope.ingest.ftrace.event_line import STACK_EVENTS, TRACING_FRAMES, frame_name
from stallscope.ingest.ftrace.graph import GraphTracker, Who
from stallscope.ingest.ftrace.graph_line import PROLOGUE, read_body, seconds_to_ns, us_to_ns
from stallscope.ingest.model import EventKind, Frame, FrameKind, ParseReport, Stack, TimedEvent

GRAPH_EVENTS = frozenset({b"funcgraph_entry", b"funcgraph_exit"})
MAX_CACHED = 200_000
MAX_CACHED_STACKS = 20_000
"""Whole stacks cached by their text: a few KB each, so fewer of them (memory stays bounded)."""


@dataclass(slots=True)
class _Held:
    line: int
    name: str
    time_ns: int
    comm: str
    tid: int
    pid: int | None
    cpu: int
    args: str
    kernel: list[bytes] = field(default_factory=list)
    user: list[bytes] = field(default_factory=list)


class EventTracker:
    """Feed `event` and `frame` in file order; finished events accumulate in `out`."""

    def __init__(self, report: ParseReport, graph: GraphTracker) -> None:
        self.out: list[TimedEvent] = []
        self.graph = graph
        self.orphan_stacks = 0
        self._report = report
        self._held: dict[int, _Held] = {}
        self._target: list[bytes] | None = None
        self._names: dict[bytes, str] = {}
        self._frames: dict[bytes, tuple[str, bool]] = {}
        self._interned: dict[tuple[str, FrameKind], Frame] = {}
        self._stacks: dict[tuple[bytes, FrameKind], Stack] = {}

    def event(
        self,
        number: int,
        comm: bytes,
        tid: int,
        pid: int | None,
        cpu: int,
        time: bytes,
        name: bytes,
        rest: bytes,
    ) -> None:
        kind = STACK_EVENTS.get(name)
        if kind is not None:
            held = self._held.get(cpu)
            if held is None or held.tid != tid:
                self.orphan_stacks += 1
                self._target = None
                return
            self._target = held.kernel if kind is FrameKind.KERNEL else held.user
            self._target.clear()
            return
        self._target = None
        earlier = self._held.pop(cpu, None)
        if earlier is not None:
            self.out.append(self._event(earlier))
        if name in GRAPH_EVENTS:
            self._graph(number, comm, tid, cpu, time, rest)
            return
        self._held[cpu] = _Held(
            number,
            self._name(name),
            seconds_to_ns(time),
            self._name(comm),
            tid,
            pid,
            cpu,
            rest.decode("utf-8", "replace"),
        )

    def frame(self, raw: bytes) -> bool:
        """A `=>` line; False when no stack is open to take it."""
        if self._target is None:
            return False
        self._target.append(raw)
        return True

    def end_stack(self) -> None:
        self._target = None

    def finish(self) -> None:
        for held in self._held.values():
            self.out.append(self._event(held))
        self._held.clear()

    def _graph(self, number: int, comm: bytes, tid: int, cpu: int, time: bytes, rest: bytes) -> None:
        prologue = PROLOGUE.match(rest)
        body = read_body(prologue.group("body")) if prologue is not None else None
        if prologue is None or body is None:
            self._report.dropped_lines += 1
            self._report.warn(number, "function graph event not understood, dropped")
            return
        duration = prologue.group("duration")
        who = Who(cpu, self._name(comm), tid)
        duration_ns = us_to_ns(duration) if duration is not None else None
        self.graph.line(number, tid, who, seconds_to_ns(time), duration_ns, body)

    def _event(self, held: _Held) -> TimedEvent:
        stack = self._stack(held.user, FrameKind.USER) + self._stack(held.kernel, FrameKind.KERNEL)
        return TimedEvent(
            held.line,
            EventKind.TRACEPOINT,
            held.name,
            held.time_ns,
            None,
            held.pid,
            held.tid,
            held.comm,
            held.cpu,
            None,
            stack,
            None,
            held.args or None,
            None,
            {},
        )

    def _stack(self, lines: list[bytes], kind: FrameKind) -> Stack:
        """Frame lines (leaf first) to a root-first stack without the tracer's own leaf frames."""
        if not lines:
            return ()
        key = (b"\n".join(lines), kind)
        stack = self._stacks.get(key)
        if stack is not None:
            return stack
        names: list[tuple[str, bool]] = []
        for raw in lines:
            found = self._frames.get(raw)
            if found is None:
                found = self._frames[raw] = frame_name(raw)
            names.append(found)
        start = 0
        if kind is FrameKind.KERNEL:
            while start < len(names) - 1 and names[start][0].startswith(TRACING_FRAMES):
                start += 1
        frames = [
            self._frame(name, kind if resolved else FrameKind.UNKNOWN) for name, resolved in names[start:]
        ]
        frames.reverse()
        stack = tuple(frames)
        if len(self._stacks) >= MAX_CACHED_STACKS:
            self._stacks.clear()
            self._frames.clear()
        self._stacks[key] = stack
        return stack

    def _frame(self, name: str, kind: FrameKind) -> Frame:
        found = self._interned.get((name, kind))
        if found is None:
            found = self._interned[(name, kind)] = Frame(name, kind)
        return found

    def _name(self, raw: bytes) -> str:
        name = self._names.get(raw)
        if name is None:
            name = raw.decode("utf-8", "replace").strip()
            if len(self._names) < MAX_CACHED:
                self._names[raw] = name
        return name
