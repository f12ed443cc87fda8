"""Differential flame-graph request sides and response payload."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from stallscope.analysis.diff import FunctionDelta, Normalize
from stallscope.flame.schemas import FlameSource


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


class DiffOut(BaseModel):
    root: dict[str, Any]
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
