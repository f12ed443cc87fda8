"""Build one row's record in one call: a conversion per column, written out, no loop.

Dense formats hold a value every few bytes. Converting a row's values with `map` over per-column
positions costs nearly as much again as the conversions (the map, its iterators, an argument tuple
per value), and a loop costs a Python step per value. So the function that builds a row is generated
once per layout, the way `dataclasses` generates `__init__`: one `float(words[i])` per column, written
out, into one `MetricRow` under the layout (`RowSeries`) it is handed. Only column positions go into
the generated source; names, units and labels are in the layout, never in text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from stallscope.ingest.model import MetricRow, RowSeries

MakeRecord = Callable[[int, int, Sequence[Any], RowSeries], MetricRow]
"""`make(line, time_ns, words, series)`: the row, with `float(words[at])` for each column."""


def row_record_maker(at: Sequence[int]) -> MakeRecord:
    """A function building the row whose value `i` is `float(words[at[i]])` under the layout it is
    given. A word that is not a number raises ValueError, and no row is made."""
    values = "".join(f"float(words[{int(position)}]), " for position in at)
    source = f"def make(line, time_ns, words, series):\n    return R(line, time_ns, series, [{values}])\n"
    namespace: dict[str, Any] = {"R": MetricRow}
    exec(compile(source, f"<row of {len(at)} values>", "exec"), namespace)
    make: MakeRecord = namespace["make"]
    return make
