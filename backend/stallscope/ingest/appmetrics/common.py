"""Small rules every application-metrics importer follows, so they word things the same way."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import BinaryIO

from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.text_lines import TextLines

Labels = tuple[tuple[str, str], ...]
CHUNK_BYTES = 1 << 20
"""What the metrics importers read at a time: their fast paths hold a chunk's cells or values, several
times its size, so they take less than the event importers."""
EMPTY = "the file is empty"
CUT = "the file ends in the middle of this line; dropped it"


def drop(report: ParseReport, line: int, why: str, what: str = "line") -> None:
    """Count a dropped line (or `what` else was dropped) and say why; the warning carries the line."""
    report.dropped_lines += 1
    report.warn(line, f"{why}; dropped this {what}")


def cut(report: ParseReport, line: int) -> None:
    """The last line stops short (an upload or writer cut off): dropped, and the report marked."""
    report.truncated = True
    report.dropped_lines += 1
    report.warn(line, CUT)


def empty() -> ParseError:
    return ParseError(0, EMPTY)


def label_text(value: object) -> str:
    """Label values are text; JSON's true/false/null read as they are written."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def labels_of(mapping: Mapping[str, object]) -> Labels:
    """A label mapping as the sorted pairs `MetricPoint.labels` holds."""
    return tuple(sorted((str(key), label_text(value)) for key, value in mapping.items()))


def is_number(value: object) -> bool:
    """A JSON number (booleans are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def number(value: object) -> float:
    """A JSON number or numeric string as a float; ValueError otherwise.

    An integer past a float's range is infinite, as `float()` reads the same digits written as text
    (which the fast paths do), rather than the OverflowError `float()` raises for the integer.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        return float(value)
    raise ValueError(f"{value!r} is not a number")


def text_lines(stream: BinaryIO) -> TextLines:
    """The lines of a metrics text, a chunk (`CHUNK_BYTES`) at a time.

    A compressed stream that ends early raises EOFError here, as it always has for these importers,
    rather than being read as a cut capture.
    """
    return TextLines(stream, CHUNK_BYTES, tolerate_cut_stream=False)
