"""Pick the importer for a capture by its content, and explain inputs no importer accepts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from stallscope.ingest.model import CaptureClock, ParseError, ParseReport, Record

HEAD_BYTES = 64 * 1024
PERF_DATA_MAGIC = b"PERFILE2"


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
        collapsed,
        dtrace,
        ftrace,
        perf_trace,
        sched,
        snapshot,
        stap,
        sysstat,
    )

    return [
        snapshot.IMPORTER,
        sched.IMPORTER,
        _perf_script_importer(),
        perf_trace.ABSOLUTE_IMPORTER,
        perf_trace.IMPORTER,
        stap.IMPORTER,
        ftrace.IMPORTER,
        sysstat.IMPORTER,
        *appmetrics.IMPORTERS[:-1],
        dtrace.IMPORTER,
        collapsed.IMPORTER,
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


def detect_importer(head: bytes) -> Importer:
    """The importer for a capture whose first bytes (decompressed) are `head`."""
    if not head.strip():
        raise ParseError(0, "the file is empty")
    if head.startswith(PERF_DATA_MAGIC):
        raise ParseError(0, "this is a perf.data file; run `perf script` on the host and upload its output")
    for importer in importers():
        if importer.detect(head):
            return importer
    if _looks_binary(head):
        raise ParseError(
            1,
            "binary data, not a text capture (is it compressed with something "
            "other than gzip or zstd, or the wrong file?)",
        )
    first_line = head.split(b"\n", 1)[0][:120].decode("utf-8", "replace")
    raise ParseError(1, f"unrecognised format; the file starts with {first_line!r}")
