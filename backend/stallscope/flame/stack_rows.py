"""A view's stack weights as the arrays a call-site tree is weighed with: summed from the captures'
sample arrays when they can answer (`flame/sample_times.py`), else as the database returns them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy.orm import Session

from stallscope.analysis.callsites import Int64s
from stallscope.flame import callsite_trees, repository, sample_times
from stallscope.flame.repository import StackWeightColumns
from stallscope.flame.schemas import SampleFilter
from stallscope.models import Capture


@dataclass(frozen=True, slots=True)
class StackWeightArrays:
    comms: list[str]
    stacks: Int64s
    weights: Int64s
    samples: Int64s


def stack_weight_arrays(columns: StackWeightColumns) -> StackWeightArrays:
    comms, stacks, weights, samples = columns
    return StackWeightArrays(
        comms=comms,
        stacks=np.array(stacks, dtype=np.int64),
        weights=np.array(weights, dtype=np.int64),
        samples=np.array(samples, dtype=np.int64),
    )


def stack_rows(session: Session, flt: SampleFilter, captures: Sequence[Capture]) -> StackWeightArrays:
    """The filter's (process, stack) weights and samples over `captures` (the filter's)."""
    local = from_sample_times(session, flt, captures)
    if local is not None:
        return local
    return stack_weight_arrays(repository.stack_weight_columns(session, flt))


def from_sample_times(
    session: Session, flt: SampleFilter, captures: Sequence[Capture]
) -> StackWeightArrays | None:
    """The rows summed from the captures' sample arrays; None when the filter asks for what they do
    not hold, a capture has none, or the captures are too large together."""
    too_many = sum(c.sample_count or 0 for c in captures) > sample_times.MAX_VIEW_SAMPLES
    if too_many or not sample_times.answers(flt):
        return None
    comms: list[str] = []
    parts: list[tuple[Int64s, Int64s, Int64s]] = []
    for capture in captures:
        if capture.parsed_at is None:
            return None
        times = sample_times.cached(session, capture.id, capture.parsed_at)
        if times is None:
            return None
        tree = callsite_trees.trees.kept(session, capture).tree
        summed = sample_times.pair_weights(times, tree, flt)
        keys = tree.pair_keys[summed.pairs]
        comms.extend(tree.comms[i] for i in (keys % max(len(tree.comms), 1)).tolist())
        parts.append((keys // max(len(tree.comms), 1), summed.weights, summed.samples))
    if not parts:
        return None
    stacks, weights, samples = (np.concatenate([part[i] for part in parts]) for i in range(3))
    return StackWeightArrays(comms=comms, stacks=stacks, weights=weights, samples=samples)
