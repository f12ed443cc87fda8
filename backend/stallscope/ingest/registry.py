"""Pick the importer for a capture by its content, and explain inputs no importer accepts.

Detection sees the head as the importers will read it (`text_lines.utf8_head`: no byte order mark,
UTF-8 when the file is UTF-16). A blank file gets the `EMPTY` importer, which yields nothing, so
that it ends as an empty capture rather than a failed one. A perf.data file is named as such, with
the command that turns it into text (`perf_data`). A short file that no importer takes is tried
again without its last few lines: a tool's closing remark (`[...]`, `Ending tracing...`,
`CPU:1 [LOST 12 EVENTS]`) must not hide the records above it; the importer then drops those lines
with a warning. The catch-all importers (`CATCH_ALL`, CSV) come after that second look.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from stallscope.ingest.model import CaptureClock, ParseError, ParseReport, Record
from stallscope.ingest.perf_data import perf_data_message
from stallscope.ingest.text_lines import TextStream, utf8_head

HEAD_BYTES = 64 * 1024
MAX_TRAILING_LINES = 3
"""Lines at the end of a short file that may be something other than records (see the docstring)."""
CATCH_ALL = frozenset({"metrics-csv"})
"""Importers that take nearly any text with separators: tried last, after the others have also seen
the file without its closing remark (a collapsed file ending in `[...]` is not a CSV)."""


@dataclass(frozen=True, slots=True)
class Importer:
    """A format's name, its content sniffer, its streaming parser and the clock its times are on.

    `detect` sees the first 64 KiB (decompressed) and must be cheap and specific: importers are
    tried in order and the first that accepts wins, so a generic format (CSV) goes last.
    """

    name: str
    detect: Callable[[bytes], bool]
    parse: Callable[[BinaryIO, ParseReport], Iterator[Record]]
    clock: CaptureClock


def _perf_script_importer() -> Importer:
    from stallscope.ingest import perf_script

    return Importer("perf-script", perf_script.detect, perf_script.parse_perf_script, CaptureClock.MONOTONIC)


def importers() -> list[Importer]:
    """Every importer, most specific first: the first whose `detect` accepts a file wins.

    Scheduler captures are perf script too, so `perf-sched` must precede `perf-script`; generic
    text formats (collapsed stacks, CSV) come last.
    """
    from stallscope.ingest import (
        appmetrics,
        clock_anchors,
        collapsed,
        dtrace,
        ftrace,
        perf_trace,
        proc_stacks,
        records,
        sched,
        snapshot,
        snapshot_text,
        stap,
        sysstat,
    )

    return [
        records.IMPORTER,
        snapshot.IMPORTER,
        clock_anchors.IMPORTER,
        sched.IMPORTER,
        _perf_script_importer(),
        perf_trace.ABSOLUTE_IMPORTER,
        perf_trace.IMPORTER,
        stap.IMPORTER,
        ftrace.IMPORTER,
        sysstat.IMPORTER,
        *appmetrics.IMPORTERS[:-1],
        proc_stacks.IMPORTER,
        snapshot_text.IMPORTER,
        dtrace.IMPORTER,
        collapsed.IMPORTER,
        appmetrics.CSV_EVENTS,
        appmetrics.IMPORTERS[-1],
    ]


def importer_by_name(name: str) -> Importer:
    for importer in importers():
        if importer.name == name:
            return importer
    known = ", ".join(i.name for i in importers())
    raise ParseError(0, f"unknown format {name!r}; known formats: {known}")


def _looks_binary(head: bytes) -> bool:
    if b"\0" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut by the end of the sniffed window is still text.
        return exc.start < len(head) - 4
    return False


def is_blank(head: bytes) -> bool:
    """Nothing but blanks (and perhaps a byte order mark) in a capture's first bytes."""
    return not utf8_head(head).strip()


def _parse_blank(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    """Yield nothing, after checking that the rest of the file is blank too."""
    for piece in TextStream(stream):
        if piece.strip():
            raise ParseError(
                0, f"the first {HEAD_BYTES >> 10} KiB are blank, then text follows: not a capture format"
            )
    yield from ()


EMPTY = Importer("empty", is_blank, _parse_blank, CaptureClock.NONE)
"""What a blank file gets: no records, and the `empty` status rather than a failure. Not in
`importers()`: no one chooses it, and it takes no part in detection by content."""


def detect_importer(head: bytes) -> Importer:
    """The importer for a capture whose first bytes (decompressed) are `head`."""
    perf_data = perf_data_message(head)
    if perf_data is not None:
        raise ParseError(0, perf_data)
    text = utf8_head(head, HEAD_BYTES)
    if not text.strip():
        return EMPTY
    candidates = importers()
    specific = [importer for importer in candidates if importer.name not in CATCH_ALL]
    found = _first_taker(specific, text)
    if found is None and len(head) < HEAD_BYTES:  # the whole file: try it without a closing remark
        found = next((f for t in _without_last_lines(text) if (f := _first_taker(specific, t))), None)
    if found is None:
        found = _first_taker([importer for importer in candidates if importer.name in CATCH_ALL], text)
    if found is None:
        raise _unrecognised(text)
    return found


def _unrecognised(text: bytes) -> ParseError:
    if _looks_binary(text):
        return ParseError(
            1,
            "binary data, not a text capture (is it compressed with something "
            "other than gzip or zstd, or the wrong file?)",
        )
    first_line = text.lstrip().split(b"\n", 1)[0][:120].decode("utf-8", "replace")
    return ParseError(1, f"unrecognised format; the file starts with {first_line!r}")


def _first_taker(candidates: list[Importer], head: bytes) -> Importer | None:
    for importer in candidates:
        if importer.detect(head):
            return importer
    return None


def _without_last_lines(text: bytes) -> Iterator[bytes]:
    """`text` without its last line, then its last two... up to `MAX_TRAILING_LINES`, while lines
    are left."""
    lines = text.rstrip().split(b"\n")
    for cut in range(1, min(MAX_TRAILING_LINES, len(lines) - 1) + 1):
        yield b"\n".join(lines[:-cut]) + b"\n"
