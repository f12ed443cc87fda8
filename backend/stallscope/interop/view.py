"""What the interop encoders read: a flame-graph view as weighted stacks, with its unit and span.

Both ways a view exists come here: the server's merged tree (`from_tree`, which knows each frame's
stored kind) and folded text (`from_folded`, where kinds come from the `_[k]`/`_[j]`/`_[i]`
suffixes the reference collapsers add, and unannotated frames count as user code). Every stack
starts with its thread-name root frame, as in folded stacks and in our flame graphs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from stallscope.analysis.flame import FlameNode

PROCESS_KIND = "process"
"""The kind of a stack's root frame: the thread's name (comm), not code."""

ViewUnit = Literal["samples", "events", "ns", "us"]
"""What a view's weights count: samples, counted events (a period such as cycles), nanoseconds of
CPU (cpu-clock periods) or microseconds blocked (off-CPU)."""

_SUFFIX_KINDS = {"_[k]": "kernel", "_[j]": "jit", "_[i]": "inline"}


@dataclass(frozen=True, slots=True)
class ViewFrame:
    name: str
    kind: str
    """`user`, `kernel`, `jit`, `inline`, `unknown`, or `process` for the root frame."""


@dataclass(frozen=True, slots=True)
class ViewStack:
    frames: tuple[ViewFrame, ...]
    """Root (the thread's name) first, leaf last."""
    weight: int
    samples: int


@dataclass(slots=True)
class ViewProfile:
    """One view of the flame graph: its stacks and what their weights mean."""

    stacks: list[ViewStack]
    unit: ViewUnit
    event: str
    """What was counted: a perf event (`cpu-clock`), `off-cpu`, or `proc-stack`."""
    name: str = "stallscope"
    """A title for the profile (speedscope shows it)."""
    start: datetime | None = None
    """When the view's time span began, with a zone (None when unknown); `end` when it ended."""
    end: datetime | None = None
    comments: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(s.weight for s in self.stacks)

    @property
    def total_samples(self) -> int:
        return sum(s.samples for s in self.stacks)


def from_tree(root: FlameNode, focus: Sequence[str] = ()) -> list[ViewStack]:
    """The stacks below the node `focus` names (from the tree's root), each with its full path.

    A node's own weight (`self_value`) ends one stack: the tree's leaves and the frames that were
    sampled themselves. The path is one list shared by the walk, copied only where a stack ends.
    """
    path: list[ViewFrame] = []
    node = root
    for name in focus:
        node = next(c for c in node.children.values() if c.name == name)
        path.append(_frame(node, depth=len(path)))
    stacks: list[ViewStack] = []
    if path and (node.self_value or node.self_samples):
        stacks.append(ViewStack(tuple(path), node.self_value, node.self_samples))
    pending = [(child, len(path)) for child in node.children.values()]
    # One object per distinct frame (encoders key on object ids), found by kind, then name.
    frames: dict[str, dict[str, ViewFrame]] = {}
    while pending:
        child, above = pending.pop()
        del path[above:]
        kind = PROCESS_KIND if above == 0 else child.kind
        named = frames.get(kind)
        if named is None:
            named = frames[kind] = {}
        frame = named.get(child.name)
        if frame is None:
            frame = named[child.name] = ViewFrame(child.name, kind)
        path.append(frame)
        if child.self_value or child.self_samples:
            stacks.append(ViewStack(tuple(path), child.self_value, child.self_samples))
        below = above + 1
        pending.extend([(grandchild, below) for grandchild in child.children.values()])
    return stacks


def _frame(node: FlameNode, depth: int) -> ViewFrame:
    return ViewFrame(node.name, PROCESS_KIND if depth == 0 else node.kind)


def from_folded(lines: Iterable[str]) -> list[ViewStack]:
    """Folded lines (`comm;caller;callee weight`) as stacks; each line counts as one sample."""
    frames: dict[str, ViewFrame] = {}
    stacks: list[ViewStack] = []
    for line in lines:
        text, _, count = line.rstrip("\r\n").rpartition(" ")
        if not text or not count.isdigit():
            continue
        names = text.split(";")
        path = [ViewFrame(names[0], PROCESS_KIND)]
        for name in names[1:]:
            frame = frames.get(name)
            if frame is None:
                frame = frames[name] = _folded_frame(name)
            path.append(frame)
        stacks.append(ViewStack(tuple(path), int(count), 1))
    return stacks


def _folded_frame(name: str) -> ViewFrame:
    for suffix, kind in _SUFFIX_KINDS.items():
        if name.endswith(suffix):
            return ViewFrame(name[: -len(suffix)], kind)
    return ViewFrame(name, "user")
