"""Build the points of one row in one call: a constructor call per column, written out, no loop.

Dense formats yield a point every few bytes. Building a row's few points with `map` over per-column
lists costs nearly as much again as the points themselves (the map, its iterators, an argument tuple
per point), and a loop costs a Python step per point. So the function that builds a row's points is
generated once per layout, the way `dataclasses` generates `__init__`: one `MetricPoint(...)` call
per column, written out, returning a tuple. Only column positions go into the generated source;
names, units and labels are bound as values, never as text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from stallscope.ingest.model import MetricPoint

Labels = tuple[tuple[str, str], ...]
MakeRow = Callable[[int, int, Sequence[Any], Any], tuple[MetricPoint, ...]]
"""`make(line, time_ns, words, labels)`: the row's points, `float(words[at])` for each column."""


def row_maker(
    names: Sequence[str], units: Sequence[str | None], at: Sequence[int], shared_labels: bool
) -> MakeRow:
    """A function building one point per column: the value is `float(words[at[i]])`, the name
    `names[i]`, the unit `units[i]`; the labels are `labels` itself when `shared_labels`, else
    `labels[i]`. A word that is not a number raises ValueError, and no point is made."""
    if not (len(names) == len(units) == len(at)):
        raise ValueError("one name, unit and position per column")
    calls = []
    for i, position in enumerate(at):
        labels = "labels" if shared_labels else f"labels[{i}]"
        calls.append(f"M(line, n{i}, time_ns, float(words[{int(position)}]), {labels}, u{i}), ")
    source = f"def make(line, time_ns, words, labels):\n    return ({''.join(calls)})\n"
    namespace: dict[str, Any] = {"M": MetricPoint}
    namespace.update({f"n{i}": name for i, name in enumerate(names)})
    namespace.update({f"u{i}": unit for i, unit in enumerate(units)})
    exec(compile(source, f"<row of {len(names)} points>", "exec"), namespace)
    make: MakeRow = namespace["make"]
    return make
