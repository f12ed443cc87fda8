"""Function-graph entries and exits to FUNCTION events, one open-call stack per task.

The depth each line is printed at is the kernel's own count, so the stack is set to that depth before
each line rather than trusted to pair `{` with `}`: a lost stretch of trace (`[LOST n EVENTS]`, a full
buffer) then costs the calls it cut, not every call after it. A call whose exit is never seen is
yielded with `duration_ns=None`; an exit whose entry is not in the trace (the trace began inside it)
is named from its `/* tail */` comment and keeps only the callers that are known.

The event's stack is its call path, root first, ending with the function itself; paths are interned
in a tree (each path keeps its callees' paths by name), so calls on the same path share one tuple.
Times: a leaf's and an entry's line carry the entry time, an exit's line the exit time (when the
absolute-time column is on); without it, start is None.
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
FLUSH_EVENTS = 64
"""Graph events handed over at a time: few enough that holding them costs the garbage collector
nothing, enough that handing them over costs no generator step per event."""
FLUSH_LINES = 2 * FLUSH_EVENTS
"""Lines `untimed_lines` reads in one call: about `FLUSH_EVENTS` events, as some lines make none (an
entry, a comment); a count of lines, as checking `out` after every event costs 3%."""


@dataclass(slots=True)
class Who:
    """Where a line ran: its CPU and, when the output names it, its task."""

    cpu: int | None
    comm: str = ""
    tid: int | None = None


_Node = tuple[Stack, dict[str, "_Node"], str]
"""A call path, the paths of the calls made from it by function name, and its function's name."""
_Call = tuple[int, _Node, int | None, Who]
"""An open call: (its line, its path, its start or None, who made it). A tuple, not a class: one is
made for every entry line, and a tuple costs a fifth of a dataclass instance to make."""
BareLine = tuple[bytes, str, int, str, str | None]
"""A line with no time or duration column: its CPU column's text, then its body's shape, depth, name
and retval (`Body`'s fields, unpacked at once)."""


_NOBODY = Who(None)


class GraphTracker:
    """Feed `line` in file order; finished FUNCTION events accumulate in `out`."""

    def __init__(self) -> None:
        self.out: list[TimedEvent] = []
        self.unclosed = 0
        self.exits_without_entry = 0
        self._stacks: dict[object, list[_Call | None]] = {}
        self._frames: dict[str, Frame] = {}
        self._root: _Node = ((), {}, "")
        self._nodes = 0  # paths made since the tree was last dropped (`MAX_CACHED_PATHS`)

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
                start = time_ns - duration_ns if time_ns is not None and duration_ns is not None else None
                call = self._exit_without_entry(number, stack, depth, body.name, start, who)
            entered, (path, _, function), start_ns, caller = call
            if start_ns is None and time_ns is not None and duration_ns is not None:
                start_ns = time_ns - duration_ns
            elif duration_ns is None and start_ns is not None and time_ns is not None:
                duration_ns = time_ns - start_ns  # no duration column: the two times tell it
            # `_emit`, written out: exits are a third of the lines.
            retval = body.retval
            self.out.append(
                TimedEvent(
                    entered,
                    _FUNCTION,
                    function,
                    start_ns,
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
            parent_node = parent[1] if parent is not None else self._parent(stack, depth)
        else:
            parent_node = self._root
        name = body.name
        node = parent_node[1].get(name) or self._child(parent_node, name)
        if shape == "entry":
            stack.append((number, node, time_ns, who))
            return
        path = node[0]
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

    def untimed_lines(
        self,
        batch: list[bytes],
        start: int,
        first: int,
        known: dict[bytes, BareLine | tuple[()]],
        who_on: dict[bytes, tuple[Who, object]],
    ) -> int:
        """`line` for a run of lines with no time or duration column, from `batch[start]` on (`first` is
        the number of `batch[0]`); returns the index of the first line it leaves to the caller.

        `known` maps a line's text to its fields (() when it is not such a line), `who_on` the CPU
        column's text to the task and stack key. This layout prints some 20 bytes a line, so the
        per-line cost is all there is: this is `line` with both times None, written out in one loop
        that looks a CPU's task and stack up once per call, and compares the CPU column's text
        (one object per text) with the line before's. It stops at a line missing from either map,
        and after `FLUSH_LINES` lines.
        """
        out, stacks = self.out, self._stacks
        event, kind = TimedEvent, _FUNCTION
        lanes: dict[bytes, tuple[Who, list[_Call | None]]] = {}
        last_cpu = b""
        who: Who = _NOBODY  # who and stack are set by the first line: no CPU column text is empty
        stack: list[_Call | None] = []
        stop = min(len(batch), start + FLUSH_LINES)
        for index in range(start, stop):
            read = known.get(batch[index])
            if not read:
                return index
            cpu_text, shape, depth, name, retval = read
            if shape == "comment":
                continue
            if cpu_text is not last_cpu:
                lane = lanes.get(cpu_text)
                if lane is None:
                    found = who_on.get(cpu_text)
                    if found is None:
                        return index
                    key = found[1]
                    lane = lanes[cpu_text] = (found[0], stacks.get(key) or stacks.setdefault(key, []))
                who, stack = lane
                last_cpu = cpu_text
            if shape == "exit":
                if len(stack) == depth + 1:
                    call = stack.pop()
                else:
                    if len(stack) > depth + 1:
                        self._cut(stack, depth + 1)
                    call = stack.pop() if len(stack) == depth + 1 else None
                if call is None:
                    call = self._exit_without_entry(first + index, stack, depth, name, None, who)
                entered, (path, _, function), start_ns, caller = call
                out.append(
                    event(
                        entered,
                        kind,
                        function,
                        start_ns,
                        None,
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
                continue
            size = len(stack)
            if size != depth:
                if size > depth:
                    self._cut(stack, depth)
                else:
                    stack.extend([None] * (depth - size))
            if depth:
                parent = stack[-1]
                parent_node = parent[1] if parent is not None else self._parent(stack, depth)
            else:
                parent_node = self._root
            node = parent_node[1].get(name) or self._child(parent_node, name)
            if shape == "entry":
                stack.append((first + index, node, None, who))
                continue
            out.append(
                event(
                    first + index,
                    kind,
                    name,
                    None,
                    None,
                    None,
                    who.tid,
                    who.comm,
                    who.cpu,
                    None,
                    node[0],
                    None,
                    None,
                    None,
                    {} if retval is None else {"retval": retval},
                )
            )
        return stop

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
        entered, (path, _, function), start_ns, who = call
        attrs: dict[str, object] = {} if retval is None else {"retval": retval}
        self.out.append(
            TimedEvent(
                entered,
                EventKind.FUNCTION,
                function,
                start_ns,
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
                attrs,
            )
        )

    def _exit_without_entry(
        self, number: int, stack: list[_Call | None], depth: int, name: str, start_ns: int | None, who: Who
    ) -> _Call:
        """The trace began inside this call: it is named from its `/* tail */`, under the known callers."""
        self.exits_without_entry += 1
        return number, self._child(self._parent(stack, depth), name or UNKNOWN_FUNCTION), start_ns, who

    def _parent(self, stack: list[_Call | None], depth: int) -> _Node:
        """The path of the innermost known caller at or above `depth`."""
        for index in range(min(depth, len(stack)) - 1, -1, -1):
            call = stack[index]
            if call is not None:
                return call[1]
        return self._root

    def _child(self, parent: _Node, name: str) -> _Node:
        """The path of `name` called from `parent`, made the first time it is asked for."""
        found = parent[1].get(name)
        if found is not None:
            return found
        if self._nodes >= MAX_CACHED_PATHS:
            self._drop_paths()
        self._nodes += 1
        frame = self._frames.get(name)
        if frame is None:
            frame = self._frames[name] = Frame(name, FrameKind.KERNEL)
        node: _Node = ((*parent[0], frame), {}, name)
        parent[1][name] = node
        return node

    def _drop_paths(self) -> None:
        """Bound the tree: start a new one, the open calls keeping their paths but not their callees'."""
        self._nodes = 0
        self._root = ((), {}, "")
        for stack in self._stacks.values():
            for index, call in enumerate(stack):
                if call is not None:
                    entered, (path, _, function), start_ns, who = call
                    stack[index] = (entered, (path, {}, function), start_ns, who)
