"""A capture file on disk, read by the same importers the server runs, for the offline commands.

`stallscope inspect|diff|threads|heatmap` work without a server: they detect the format, decompress
and stream the records here, then call the same pure analysis the API uses.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from stallscope.ingest.clock import ClockMapping, clock_mapping
from stallscope.ingest.model import CaptureClock, ParseError, ParseReport, Record
from stallscope.ingest.registry import EMPTY, HEAD_BYTES, Importer, detect_importer
from stallscope.kit.compression import Compression, decompressing_reader, sniff_compression
from stallscope.kit.readers import PrefixedReader, read_head
from stallscope.kit.stream_decoder import CorruptCompression


@dataclass(slots=True)
class LocalCapture:
    """An open capture: iterate `records()` once; `report` fills in as it goes."""

    name: str
    importer: Importer
    compression: Compression
    report: ParseReport
    head: bytes
    """The first bytes of the decompressed file, as the importer was chosen on."""
    _text: BinaryIO

    @property
    def format(self) -> str:
        return self.importer.name

    @property
    def clock(self) -> CaptureClock:
        return self.importer.clock

    @property
    def mapping(self) -> ClockMapping:
        """How the file's own times map to UTC without anything an uploader would add."""
        return clock_mapping(self.importer.clock, {}, self.head)

    def records(self) -> Iterator[Record]:
        return self.importer.parse(self._text, self.report)


def read_stream(name: str, raw: BinaryIO) -> LocalCapture:
    """Sniff compression and format of `raw`; raises ParseError when no importer accepts it."""
    compression = (
        sniff_compression(raw.peek(4)[:4]) if isinstance(raw, io.BufferedReader) else Compression.NONE
    )
    report = ParseReport()  # also told of damage in the compression, which ends the stream early
    stream = decompressing_reader(raw, compression, report)
    try:
        head = read_head(stream, HEAD_BYTES)
    except CorruptCompression as exc:  # nothing at all decompresses
        raise ParseError(0, str(exc)) from exc
    importer = detect_importer(head)
    if importer is EMPTY:  # the server keeps it as an empty capture; a command has nothing to work on
        raise ParseError(0, "the file is empty")
    text = io.BufferedReader(PrefixedReader(head, stream), buffer_size=1 << 20)
    return LocalCapture(name, importer, compression, report, head, text)


@contextmanager
def open_local_capture(path: Path) -> Iterator[LocalCapture]:
    with open(path, "rb") as raw:
        yield read_stream(str(path), raw)
