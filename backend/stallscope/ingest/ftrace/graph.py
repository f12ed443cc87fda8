"""Function-graph entries and exits to FUNCTION events, one open-call stack per task.

The depth each line is printed at is the kernel's own count, so the stack is set to that depth before
each line rather than trusted to pair `{` with `}`: a lost stretch of trace (`[LOST n EVENTS]`, a full
buffer) then costs the calls it cut, not every call after it. A call whose exit is never seen is
yielded with `duration_ns=None`; an exit whose entry is not in the trace (the trace began inside it)
is named from its `/* tail */` comment and keeps only the callers that are known.

The event's stack is its call path, root first, ending with the function itself; paths are interned,
so calls on the same path share one tuple. Times: a leaf's and an entry's line carry the entry time,
an exit's line the exit time (when the absolute-time column is on); without it, start is None.
Without the duration column (`nofuncgraph-duration`), a call's duration is its exit time less its
entry time when both are printed, and None otherwise.
Stacks are kept per task (the comm-pid column or the context-switch banners name it), else per CPU.
"""

from __future__ import annotations

from dataclasses import dataclass

from stallscope.ingest.ftrace.graph_line import Body
from stallscope.ingest.model import EventKind, Frame, FrameKind, Stack, TimedEvent

UNKNOWN_FUNCTION = "[unknown]"
_FUNCTION = EventKind.FUNCTION
MAX_CACHED_PATHS = 100_000


@dataclass(slots=True)
class Who:
    """Where a line ran: its CPU and, when the output names it, its task."""

    cpu: int | None
    comm: str = ""
    tid: int | None = None


@dataclass(slots=True)
class _Call:
    line: int
    path: Stack
    start_ns: int | None
    who: Who


class GraphTracker:
    """Feed `line` in file order; finished FUNCTION events accumulate in `out`."""

    def __init__(self) -> None:
        self.out: list[TimedEvent] = []
        self.unclosed = 0
        self.exits_without_entry = 0
        self._stacks: dict[object, list[_Call | None]] = {}
        self._frames: dict[str, Frame] = {}
        # (id(parent), name) -> (parent, path): the parent is kept to check identity, since an id
        # can be reused once its tuple is gone.
        self._paths: dict[tuple[int, str], tuple[Stack, Stack]] = {}

    def line(
        self, number: int, key: object, who: Who, time_ns: int | None, duration_ns: int | None, body: Body
    ) -> None:
        shape = body.shape
        if shape == "comment":
            return
        stack = self._stacks.get(key)
        if stack is None:
            stack = self._stacks[key] = []
        depth = body.depth
        if shape == "exit":
            if len(stack) > depth + 1:
                self._cut(stack, depth + 1)
            call = stack.pop() if len(stack) == depth + 1 else None
            if call is None:
                self.exits_without_entry += 1
                path = self._child(self._parent(stack, depth), body.name or UNKNOWN_FUNCTION)
                start = time_ns - duration_ns if time_ns is not None and duration_ns is not None else None
                call = _Call(number, path, start, who)
            elif call.start_ns is None and time_ns is not None and duration_ns is not None:
                call.start_ns = time_ns - duration_ns
            elif duration_ns is None and call.start_ns is not None and time_ns is not None:
                duration_ns = time_ns - call.start_ns  # no duration column: the two times tell it
            # `_emit`, written out: exits are a third of the lines.
            path, caller, retval = call.path, call.who, body.retval
            self.out.append(
                TimedEvent(
                    call.line,
                    _FUNCTION,
                    path[-1].name,
                    call.start_ns,
                    duration_ns,
                    None,
                    caller.tid,
                    caller.comm,
                    caller.cpu,
                    None,
                    path,
                    None,
                    None,
                    None,
                    {} if retval is None else {"retval": retval},
                )
            )
            return
        size = len(stack)
        if size > depth:
            self._cut(stack, depth)
        elif size < depth:
            stack.extend([None] * (depth - size))  # callers entered before the trace began
        if depth:
            parent = stack[-1]
            parent_path = parent.path if parent is not None else self._parent(stack, depth)
        else:
            parent_path = ()
        name = body.name
        found = self._paths.get((id(parent_path), name))
        path = found[1] if found is not None and found[0] is parent_path else self._child(parent_path, name)
        if shape == "entry":
            stack.append(_Call(number, path, time_ns, who))
            return
        retval = body.retval
        self.out.append(
            TimedEvent(
                number,
                _FUNCTION,
                name,
                time_ns,
                duration_ns,
                None,
                who.tid,
                who.comm,
                who.cpu,
                None,
                path,
                None,
                None,
                None,
                {} if retval is None else {"retval": retval},
            )
        )

    def rekey(self, old: object, new: object) -> None:
        """The task behind a per-CPU stack became known (a context-switch banner)."""
        stack = self._stacks.pop(old, None)
        if stack:
            self._stacks.setdefault(new, stack)

    def drop(self, keys: list[object]) -> None:
        """Events were lost: whatever these stacks hold may never see its exit."""
        for key in keys:
            stack = self._stacks.get(key)
            if stack:
                self._cut(stack, 0)

    def finish(self) -> None:
        for stack in self._stacks.values():
            self._cut(stack, 0)
        self._stacks.clear()

    # -- helpers ------------------------------------------------------------------------------------

    def _cut(self, stack: list[_Call | None], depth: int) -> None:
        """Calls deeper than `depth` are still open where the trace says we are shallower: unclosed."""
        while len(stack) > depth:
            call = stack.pop()
            if call is not None:
                self.unclosed += 1
                self._emit(call, None, None)

    def _emit(self, call: _Call, duration_ns: int | None, retval: str | None) -> None:
        who = call.who
        attrs: dict[str, object] = {} if retval is None else {"retval": retval}
        self.out.append(
            TimedEvent(
                call.line,
                EventKind.FUNCTION,
                call.path[-1].name,
                call.start_ns,
                duration_ns,
                None,
                who.tid,
                who.comm,
                who.cpu,
                None,
                call.path,
                None,
                None,
                None,
                attrs,
            )
        )

    @staticmethod
    def _parent(stack: list[_Call | None], depth: int) -> Stack:
        """The path of the innermost known caller at or above `depth`."""
        for index in range(min(depth, len(stack)) - 1, -1, -1):
            call = stack[index]
            if call is not None:
                return call.path
        return ()

    def _child(self, parent: Stack, name: str) -> Stack:
        key = (id(parent), name)
        found = self._paths.get(key)
        if found is not None and found[0] is parent:
            return found[1]
        if len(self._paths) >= MAX_CACHED_PATHS:
            self._paths.clear()
        frame = self._frames.get(name)
        if frame is None:
            frame = self._frames[name] = Frame(name, FrameKind.KERNEL)
        path = (*parent, frame)
        self._paths[key] = (parent, path)
        return path
