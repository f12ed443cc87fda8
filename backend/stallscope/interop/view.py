"""What the interop encoders read: a flame-graph view as weighted stacks, with its unit and span.

Both ways a view exists come here: the server's weighed call-site tree (`from_weighed`, which knows
each frame's stored kind) and folded text (`from_folded`, where kinds come from the
`_[k]`/`_[j]`/`_[i]` suffixes the reference collapsers add, and unannotated frames count as user
code). Every stack
starts with its thread-name root frame, as in folded stacks and in our flame graphs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

import numpy as np

from stallscope.analysis.callsites import ROOT
from stallscope.analysis.folded_view import PROCESS_KIND, node_labels, stack_paths
from stallscope.analysis.weighed_tree import SELF_SAMPLES, SELF_VALUE, FrameLookup, WeighedTree

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


def from_weighed(weighed: WeighedTree, top: int, lookup: FrameLookup) -> list[ViewStack]:
    """The stacks below `top` of a weighed call-site tree, each with its full path from the root.

    A node's own weight or samples end one stack: the leaves and the frames sampled themselves. Paths
    are read for every stack at once (`analysis.folded_view`); one frame object per distinct kind
    and name, as the encoders key on objects.
    """
    tree = weighed.tree
    above = []
    node = top
    while node != ROOT:
        above.append(node)
        node = int(tree.parent[node])
    above.reverse()
    self_values, self_samples = weighed.columns[:, SELF_VALUE], weighed.columns[:, SELF_SAMPLES]
    stacks = stack_paths(weighed, top, (self_values != 0) | (self_samples != 0))
    labels = node_labels(weighed, np.concatenate((np.array(above, dtype=np.int64), stacks.paths)), lookup)
    frames: dict[tuple[str, str], ViewFrame] = {}
    shared = []
    for name, kind in zip(labels.names, labels.kinds, strict=True):
        frame = frames.get((kind, name))
        if frame is None:
            frame = frames[(kind, name)] = ViewFrame(name, kind)
        shared.append(frame)
    frame_at = [shared[i] for i in labels.position]
    path_above, frame_at = tuple(frame_at[: len(above)]), frame_at[len(above) :]
    found: list[ViewStack] = []
    if above and (self_values[top] or self_samples[top]):
        found.append(ViewStack(path_above, int(self_values[top]), int(self_samples[top])))
    for end, start, stop in stacks:
        path = (*path_above, *frame_at[start:stop])
        found.append(ViewStack(path, int(self_values[end]), int(self_samples[end])))
    return found


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
