"""An events CSV's cells as the event's values: durations, ids and `attrs`, with the ranges they must fit.

Both ways through the file use these, so a row reads the same whichever way it went. Ranges are the
stores' (`value_ranges`): durations in nanoseconds are 64-bit, pids and tids 32-bit, CPUs 16-bit.
"""

from __future__ import annotations

import math

from stallscope.ingest.value_ranges import INT64_MAX

ID_RANGE = (-(1 << 31), (1 << 31) - 1)
CPU_RANGE = (-(1 << 15), (1 << 15) - 1)


def duration_ns(cell: str, scale_ns: int) -> int | None:
    """A duration in the column's unit to nanoseconds; None for an empty cell (not measured), and
    ValueError (with the reason) for text, a negative or a duration past the 64-bit range."""
    text = cell.strip()
    if not text:
        return None
    try:
        value = int(text) * scale_ns
    except ValueError:
        value = _fraction_ns(text, scale_ns)
    if value < 0:
        raise ValueError(f"duration {text!r} is negative")
    if value > INT64_MAX:
        raise ValueError(f"duration {text!r} is longer than the 292 years a duration can be")
    return value


def _fraction_ns(text: str, scale_ns: int) -> int:
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ValueError(f"duration {text!r} is not a number")
    if number < 0:
        raise ValueError(f"duration {text!r} is negative")
    scaled = number * scale_ns
    return round(scaled) if scaled <= INT64_MAX else INT64_MAX + 1  # and no infinity past 1e308


def whole_number(cell: str, what: str, bounds: tuple[int, int]) -> int | None:
    """An id (pid, tid, CPU): None when empty, ValueError when not a whole number within `bounds`."""
    text = cell.strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a whole number") from None
    if not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{what} {text!r} is out of range")
    return value


def attr_value(cell: str) -> int | float | str | None:
    """An `attrs` value: a number when the cell holds one (JSON has no NaN or infinity: those stay
    text), the text otherwise; None (left out) when the cell is empty."""
    if not cell:
        return None
    try:
        return int(cell)
    except ValueError:
        pass
    try:
        number = float(cell)
    except ValueError:
        return cell
    return number if math.isfinite(number) else cell
