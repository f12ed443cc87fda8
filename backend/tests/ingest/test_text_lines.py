"""The one line reader: its shapes (blocks, batches, chunks, lines) agree, whatever the chunking."""

from __future__ import annotations

import gzip
import io

import pytest

from stallscope.ingest import text_lines
from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.text_lines import HEAD_BYTES, TextLines, note_cut_tail

TEXT = b"first\r\nsecond\n\nfou\rrth\r\n" + b"".join(b"line %d\n" % i for i in range(200)) + b"cut tai"


@pytest.mark.parametrize("chunk", [1, 3, 7, 64, 1 << 20])
def test_every_shape_gives_the_same_lines_and_numbers(chunk: int) -> None:
    blocks = TextLines(io.BytesIO(TEXT), chunk)
    numbered = [
        (first + i, line) for first, body in blocks.blocks() for i, line in enumerate(body.split(b"\n"))
    ]
    assert [line for _, line in numbered] == TEXT.split(b"\n")[:-1]
    assert [number for number, _ in numbered] == list(range(1, len(numbered) + 1))
    assert (blocks.partial, blocks.partial_line) == (b"cut tai", len(numbered) + 1)

    batches = TextLines(io.BytesIO(TEXT), chunk)
    cleaned = [(first + i, line) for first, lines in batches.batches() for i, line in enumerate(lines)]
    assert cleaned == [(number, line.replace(b"\r", b"")) for number, line in numbered]
    assert batches.partial.strip() == b"cut tai"
    assert not batches.cut_tail

    lines = TextLines(io.BytesIO(TEXT), chunk, tolerate_cut_stream=False)
    seen = [(lines.number, line) for line in lines]
    assert seen == [*numbered, (len(numbered) + 1, b"cut tai")]
    assert lines.cut_tail


def test_a_cut_tail_is_reported_and_a_complete_one_is_not() -> None:
    report = ParseReport()
    lines = TextLines(io.BytesIO(b"a\nb\npart"))
    assert sum(len(batch) for _, batch in lines.batches()) == 2
    assert note_cut_tail(lines, report)
    assert report.truncated
    assert report.dropped_lines == 1
    assert report.warnings[0].line == 3

    report = ParseReport()
    lines = TextLines(io.BytesIO(b"a\nb\n"))
    assert sum(len(batch) for _, batch in lines.batches()) == 2
    assert not note_cut_tail(lines, report)
    assert not report.truncated
    assert report.warnings == []


def test_the_head_is_the_start_of_the_first_chunk() -> None:
    lines = TextLines(io.BytesIO(b"x" * (HEAD_BYTES * 3) + b"\n"))
    assert sum(len(batch) for _, batch in lines.batches()) == 1
    assert lines.head == b"x" * HEAD_BYTES


def test_a_line_too_long_for_text_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_lines, "MAX_LINE_BYTES", 100)
    with pytest.raises(ParseError, match="a line longer than") as raised:
        list(TextLines(io.BytesIO(b"ok\nok\n" + b"y" * 500 + b"\n"), 64).chunks())
    assert raised.value.line == 3


def test_a_compressed_stream_that_ends_early() -> None:
    data = gzip.compress(b"".join(b"line %d\n" % i for i in range(20_000)))[:-100]
    tolerant = TextLines(gzip.GzipFile(fileobj=io.BytesIO(data)), 4096)
    assert sum(len(batch) for _, batch in tolerant.batches()) > 10_000
    assert tolerant.cut_short

    strict = TextLines(gzip.GzipFile(fileobj=io.BytesIO(data)), 4096, tolerate_cut_stream=False)
    with pytest.raises(EOFError):
        list(strict.chunks())
