"""Stack weights as the database returns them, turned into the arrays a call-site tree is weighed with."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stallscope.analysis.callsites import Int64s
from stallscope.flame.repository import StackWeightColumns


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
