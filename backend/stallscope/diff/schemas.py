"""Differential flame-graph request sides and response payload."""

from __future__ import annotations

from typing import NotRequired

from pydantic import BaseModel
from typing_extensions import TypedDict

from stallscope.analysis.diff import FunctionDelta, Normalize
from stallscope.flame.schemas import FlameSource, FrameKind
from stallscope.kit.answer_model import AnswerModel


class DiffNode(TypedDict):
    """A frame of the diff's tree, for the OpenAPI schema (the answer's tree is written as JSON text
    straight from arrays, never through a model). `value` is the width drawn: B's weight."""

    name: str
    kind: FrameKind
    value: int
    a: int
    b: int
    delta: float
    """`b` minus `a` times the answer's `scale`."""
    share_delta: float
    """B's share of its total minus A's of its own."""
    children: list[DiffNode]
    truncated: NotRequired[bool]
    """Sent (true) when pruning folded some of the frame's descendants away."""
    folded_frames: NotRequired[int]
    """A "(deeper)" frame's: how many frames below the depth budget it stands for."""


class SideOut(BaseModel):
    """What one side selected: its captures and the weight and count of what matched."""

    captures: list[int]
    total: int
    samples: int
    """CPU samples, or off-CPU intervals."""


class FunctionOut(BaseModel):
    """A function's own weights on each side; deltas are B minus A times the response's `scale`."""

    name: str
    self_a: int
    self_b: int
    self_delta: float
    total_a: int
    total_b: int
    total_delta: float

    @classmethod
    def of(cls, row: FunctionDelta) -> FunctionOut:
        return cls.model_validate(row.as_dict())


class DiffOut(AnswerModel):
    """`GET /api/diff`'s body: the route writes it itself, so this model only states its schema."""

    root: DiffNode
    a: SideOut
    b: SideOut
    source: FlameSource
    state: str | None
    unit: str
    event: str | None
    events: list[str]
    normalize: Normalize
    scale: float
    """A's multiplier in every delta: B's total over A's under `normalize=total`, else 1."""
    functions: list[FunctionOut]
    """The `top` functions by total change and the `top` by self change, largest total change first."""
    function_count: int
    node_count: int
    pruned_nodes: int
    """Frames not sent: folded into "(other)" by the node budget or into "(deeper)" by the depth budget."""
    prune_threshold: float
    focus: list[str] = []
    """The frame `root` is (names from the root, process first; empty: the whole diff)."""
    max_depth: int
    """The depth budget: levels below `root` sent at most."""
    deep_nodes: int = 0
    """Of `pruned_nodes`, those below the depth budget; a zoom into a "(deeper)" frame's parent loads them."""
    height: int = 0
    """Levels below `root` in this answer."""
