"""The one line reader: its shapes (blocks, batches, chunks, lines) agree, whatever the chunking."""

from __future__ import annotations

import gzip
import io

import pytest

from stallscope.ingest import text_lines
from stallscope.ingest.model import ParseError, ParseReport, ParseWarning
from stallscope.ingest.text_lines import (
    CUT_LINE,
    HEAD_BYTES,
    TextLines,
    drop_line,
    note_cut_tail,
    sniff_lines,
    utf8_head,
)

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
    last = (len(numbered) + 1, b"cut tai")
    assert cleaned == [*((number, line.replace(b"\r", b"")) for number, line in numbered), last]
    assert batches.cut_tail
    assert batches.ends_inside(len(numbered) + 1)
    assert not batches.ends_inside(len(numbered))

    lines = TextLines(io.BytesIO(TEXT), chunk, tolerate_cut_stream=False)
    seen = [(lines.number, line) for line in lines]
    assert seen == [*numbered, (len(numbered) + 1, b"cut tai")]
    assert lines.cut_tail


def test_a_last_line_without_its_newline_is_handed_over_and_judged_by_the_importer() -> None:
    report = ParseReport()
    lines = TextLines(io.BytesIO(b"a\nb\npart"))
    assert [batch for _, batch in lines.batches()] == [[b"a", b"b"], [b"part"]]
    assert not note_cut_tail(lines, report)
    assert (report.truncated, report.warnings) == (False, [])
    drop_line(lines, report, 3, "not a record")
    assert report.truncated
    assert report.dropped_lines == 1
    assert report.warnings[0] == ParseWarning(3, CUT_LINE)
    drop_line(lines, report, 2, "not a record")
    assert report.warnings[1] == ParseWarning(2, "not a record")


def test_a_cut_tail_of_blocks_is_reported() -> None:
    report = ParseReport()
    lines = TextLines(io.BytesIO(b"a\nb\npart"))
    assert [body for _, body in lines.blocks()] == [b"a\nb"]
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


def test_the_last_line_of_a_stream_cut_short_is_never_handed_over() -> None:
    data = gzip.compress(b"".join(b"line %d\n" % i for i in range(20_000)))[:-100]
    lines = TextLines(gzip.GzipFile(fileobj=io.BytesIO(data)), 4096)
    handed = [line for _, batch in lines.batches() for line in batch]
    assert lines.cut_short
    assert all(line.startswith(b"line ") and line[-1:].isdigit() for line in handed)
    report = ParseReport()
    note_cut_tail(lines, report)
    assert report.truncated


@pytest.mark.parametrize("chunk", [1, 2, 5, 64, 1 << 20])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_a_byte_order_mark_is_read_past_and_utf16_becomes_utf8(encoding: str, chunk: int) -> None:
    text = "# comment\nfirst\r\nsécond ✓\nthird"
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = "\ufeff".encode(encoding) + data  # the BOM `utf-16` writes in the machine's order
    lines = TextLines(io.BytesIO(data), chunk, comments=True)
    handed = [(first + i, line) for first, batch in lines.batches() for i, line in enumerate(batch)]
    assert handed == [(1, b""), (2, b"first"), (3, "sécond ✓".encode()), (4, b"third")]
    assert lines.head[:1] == b"#"  # what `reject_non_text` looks at: UTF-8, no BOM


def test_without_a_bom_the_bytes_go_through_untouched() -> None:
    data = b"\xff\xfd not utf-8 \n" * 3
    lines = TextLines(io.BytesIO(data))
    assert [line for _, batch in lines.batches() for line in batch] == [b"\xff\xfd not utf-8 "] * 3


def test_the_head_for_detection_loses_its_bom_and_a_window_cut_line() -> None:
    whole = "a;b 1\nc;d 2".encode("utf-16")
    assert utf8_head(whole) == b"a;b 1\nc;d 2"
    window = ("x;y 1\n" * 20_000).encode("utf-16")[:HEAD_BYTES]
    converted = utf8_head(window)
    assert converted.endswith(b"x;y 1\n")
    assert len(converted) <= HEAD_BYTES
    assert utf8_head(b"\xef\xbb\xbfa;b 1\n") == b"a;b 1\n"


def test_sniffed_lines_keep_a_whole_files_last_line_and_drop_comments() -> None:
    assert sniff_lines(b"# c\na 1\nb 2") == [b"a 1", b"b 2"]
    assert sniff_lines(b"# c\na 1\nb 2", comments=True) == [b"# c", b"a 1", b"b 2"]
    assert sniff_lines(b"a 1\n") == [b"a 1"]
    cut_window = b"a 1\n" * (HEAD_BYTES // 4 - 1) + b"b 22"
    assert len(cut_window) == HEAD_BYTES
    assert sniff_lines(cut_window, limit=1 << 20)[-1] == b"a 1"
