"""Flame-graph request filters and response payloads."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NotRequired

from pydantic import BaseModel
from typing_extensions import TypedDict

from stallscope.kit.answer_model import AnswerModel

FlameSource = Literal["samples", "off-cpu", "proc-stack"]
FrameKind = Literal["root", "process", "user", "kernel", "jit", "inline", "unknown", "other", "deeper"]
"""`other`: what the node budget folded away under a frame; `deeper`: what lies below the depth budget."""


class FlameNode(TypedDict):
    """A frame of a flame graph's tree, for the OpenAPI schema: the answers write their trees as JSON
    text straight from arrays (`analysis/tree_text.py`), never through a model."""

    name: str
    value: int
    """The frame's inclusive weight, in the answer's unit."""
    samples: int
    kind: FrameKind
    children: list[FlameNode]
    truncated: NotRequired[bool]
    """Sent (true) when pruning folded some of the frame's descendants away."""
    folded_frames: NotRequired[int]
    """A "(deeper)" frame's: how many frames below the depth budget it stands for."""


class WithinSecond(BaseModel):
    """A window of offsets inside every wall-clock second, [start_us, end_us), or outside it.

    What a drag over heatmap rows selects: "the first 20 ms of every second" is (0, 20000), and
    "the rest" of those seconds the same window with `outside=True`.
    """

    start_us: int
    end_us: int
    outside: bool = False

    @classmethod
    def parse(cls, raw: str) -> WithinSecond:
        """`0-20000` (inside) or `!0-20000` (outside), microseconds."""
        text = raw.strip()
        outside = text.startswith("!")
        bounds = text.lstrip("!").split("-")
        try:
            start_us, end_us = (int(b) for b in bounds)
        except ValueError as exc:
            raise ValueError(
                f"within must look like 0-20000 or !0-20000 (µs in the second), got {raw!r}"
            ) from exc
        if not 0 <= start_us < end_us <= 1_000_000:
            raise ValueError(f"within needs 0 <= start < end <= 1000000 µs, got {raw!r}")
        return cls(start_us=start_us, end_us=end_us, outside=outside)

    def __str__(self) -> str:
        return f"{'!' if self.outside else ''}{self.start_us}-{self.end_us}"


class SampleFilter(BaseModel):
    """Which samples a view shows; the same filter drives the graph, the folded download and facets.

    `source="off-cpu"` reads off-CPU intervals instead of CPU samples, weighted by blocked time
    (microseconds, like Brendan Gregg's off-CPU flame graphs); `source="proc-stack"` reads the
    kernel stacks sampled from /proc, counted in samples, every state summed. With either, `state`
    keeps one scheduler state and `event` is not used.
    """

    capture_ids: list[int]
    source: FlameSource = "samples"
    state: str | None = None
    event: str | None = None
    pid: int | None = None
    tid: int | None = None
    comm: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    within: WithinSecond | None = None

    @property
    def is_whole_capture(self) -> bool:
        """No time restriction at all: the ingest-time totals can answer."""
        return self.start is None and self.end is None and self.within is None


class FlameFields(AnswerModel):
    """A flame graph answer's fields but its tree."""

    total: int
    total_samples: int
    unit: str
    event: str | None
    events: list[str]
    node_count: int
    pruned_nodes: int
    """Frames not sent: folded into "(other)" by the node budget or into "(deeper)" by the depth budget."""
    prune_threshold: float
    focus: list[str]
    max_depth: int
    """The depth budget: levels below `root` sent at most."""
    deep_nodes: int = 0
    """Of `pruned_nodes`, those below the depth budget; a zoom into a "(deeper)" frame's parent loads them."""
    height: int = 0
    """Levels below `root` in this answer."""


class FlameOut(FlameFields):
    """A flame graph made in process (the postmortem's images), its tree as parsed JSON."""

    root: dict[str, Any]


class FlameAnswer(FlameFields):
    """`GET /api/flame`'s body: the route writes it itself, so this model only states its schema."""

    root: FlameNode


class FrameOut(BaseModel):
    name: str
    kind: str


class EventFacet(BaseModel):
    name: str
    samples: int
    unit: str


class ProcessFacet(BaseModel):
    pid: int | None
    comm: str
    samples: int


class ThreadFacet(BaseModel):
    pid: int | None
    tid: int | None
    comm: str
    samples: int


class FacetsOut(BaseModel):
    events: list[EventFacet]
    processes: list[ProcessFacet]
    threads: list[ThreadFacet]
    time_start: datetime | None
    time_end: datetime | None
