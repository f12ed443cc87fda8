"""The complete lines of a text capture, read in big chunks, for every line-oriented importer.

Splitting a multi-megabyte chunk in C is several times cheaper than reading line by line (and on an
unbuffered reader, such as a sniffed upload put back together, `readline` costs a read per byte),
and it keeps memory bounded by the chunk size. `TextLines` hands the lines over a chunk at a time,
in the shape the importer works in:

- `blocks`: the chunk's complete lines as one `bytes`, for parsers that decode or split it at once;
- `batches`: a list of lines, carriage returns removed (the event and stack importers);
- `chunks`, or iterating: a list of lines as they are, the last one included even without its
  newline (the metrics importers, which judge that line themselves: `cut_tail` says which it was).

What people upload is not always what the tools wrote, and every importer reads it the same way here:

- **No final newline** (a file saved by an editor, `head -c`, a paste): `batches` hands the last
  line over like any other and sets `cut_tail`. The importer reads it; when it cannot, `drop_line`
  says the file ends in the middle of it. With `blocks`, that line is kept apart in `partial`.
- **Byte order marks**: a UTF-8 BOM is skipped, and a text that starts with a UTF-16 BOM (what
  PowerShell's `>` writes) is read as UTF-8 converted from it, a chunk at a time (`TextStream`).
  `utf8_head` does the same for the sniffed head the registry detects formats on.
- **Comment lines** (`#` first), with `comments=True`: handed over empty, so their numbers stay and
  an importer that skips blank lines skips them.

A compressed stream that ends early raises EOFError inside the decompressor; it is caught and
recorded as `cut_short` (the text after its last newline is then dropped, never read as a line),
unless the importer asks for it to propagate.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from itertools import chain
from typing import BinaryIO

from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.perf_data import looks_like_perf_data, perf_data_message

CHUNK_BYTES = 4 << 20
HEAD_BYTES = 64 << 10
"""As much of the first chunk as `head` keeps: what `reject_non_text` looks at. Keeping the whole chunk
would also keep its memory from being reused for the next one, which costs page faults."""
MAX_LINE_BYTES = 16 << 20
"""A longer line means the input is not line-oriented text; stop before holding it all."""
CUT_LINE = "the file ends in the middle of this line; dropped it"
_UTF8_BOM = codecs.BOM_UTF8
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_BOM_BYTES = 3


def bom_encoding(head: bytes) -> str | None:
    """`utf-8` or `utf-16` when `head` starts with that encoding's byte order mark, else None."""
    if head.startswith(_UTF8_BOM):
        return "utf-8"
    if head.startswith(_UTF16_BOMS):
        return "utf-16"
    return None


def utf8_head(head: bytes, window: int = HEAD_BYTES) -> bytes:
    """A sniffed head as the importers will read it: without a BOM, and UTF-8 when it was UTF-16.

    A full `window` may end inside a line (or a character): the converted text then stops at its
    last newline, so that no detector mistakes a cut line for a whole one.
    """
    encoding = bom_encoding(head)
    if encoding is None:
        return head
    if encoding == "utf-8":
        return head[len(_UTF8_BOM) :]
    text = codecs.getincrementaldecoder("utf-16")("replace").decode(head).encode()
    if len(head) >= window:
        text = text[: text.rfind(b"\n") + 1]
    return text[:window]


class TextStream:
    """A text capture's bytes as UTF-8, piece by piece, read forward only.

    `tolerate_cut_stream`: read with `read1` where the stream has it, so that a compressed stream
    that ends early loses only its last small piece, and stop there with `cut_short` set; when False,
    read with `read` and let the EOFError through. Plain UTF-8 (nearly every capture) goes through
    untouched; only a text that starts with a BOM costs a conversion.
    """

    def __init__(self, stream: BinaryIO, chunk_bytes: int = CHUNK_BYTES, *, tolerate_cut_stream: bool = True):
        self._stream = stream
        self._chunk_bytes = chunk_bytes
        self._tolerate_cut_stream = tolerate_cut_stream
        self.cut_short = False
        self.encoding: str | None = None
        """The encoding its BOM named (`utf-8` or `utf-16`); None without a BOM."""

    def __iter__(self) -> Iterator[bytes]:
        raw = self._raw_pieces()
        first = b""
        for piece in raw:  # enough bytes to tell a BOM, however small the reads
            first += piece
            if len(first) >= _BOM_BYTES:
                break
        self.encoding = bom_encoding(first)
        if self.encoding is None:
            if first:
                yield first
            yield from raw
        elif self.encoding == "utf-8":
            if len(first) > len(_UTF8_BOM):
                yield first[len(_UTF8_BOM) :]
            yield from raw
        else:
            yield from self._utf16(first, raw)

    @staticmethod
    def _utf16(first: bytes, raw: Iterator[bytes]) -> Iterator[bytes]:
        decoder = codecs.getincrementaldecoder("utf-16")("replace")  # reads the BOM, and drops it
        for piece in chain((first,), raw):
            text = decoder.decode(piece)
            if text:
                yield text.encode()
        rest = decoder.decode(b"", final=True)
        if rest:
            yield rest.encode()

    def _raw_pieces(self) -> Iterator[bytes]:
        if not self._tolerate_cut_stream:
            while data := self._stream.read(self._chunk_bytes):
                yield data
            return
        read = getattr(self._stream, "read1", None) or self._stream.read
        while True:
            try:
                piece: bytes = read(self._chunk_bytes)
            except EOFError:
                self.cut_short = True
                return
            if not piece:
                return
            yield piece


class TextLines:
    """Read one of `blocks`, `batches`, `chunks` or the lines themselves, once.

    `tolerate_cut_stream`: see `TextStream`. `comments`: hand lines that start with `#` over empty.
    """

    def __init__(
        self,
        stream: BinaryIO,
        chunk_bytes: int = CHUNK_BYTES,
        *,
        tolerate_cut_stream: bool = True,
        comments: bool = False,
    ) -> None:
        self._text = TextStream(stream, chunk_bytes, tolerate_cut_stream=tolerate_cut_stream)
        self._comments = comments
        self.head = b""
        """The start of the first chunk, for the importer's own "is this my format at all" check."""
        self.number = 0
        """The 1-based number of the last line handed over."""
        self.partial = b""
        """What follows the last newline, once the lines are read (`batches` hands it over too,
        unless the stream was cut short)."""
        self.partial_line = 1
        """1-based number of the line `partial` is (or would have been)."""
        self.cut_tail = False
        """True once a last line that had no newline has been handed over."""

    @property
    def cut_short(self) -> bool:
        """The compressed stream ended early: what followed its last newline is lost, not a line."""
        return self._text.cut_short

    def blocks(self) -> Iterator[tuple[int, bytes]]:
        """(number of the first line, the complete lines joined by `\\n`), chunk by chunk."""
        pending = b""
        for piece in self._text:
            if not self.head:
                self.head = piece[:HEAD_BYTES]
            data = pending + piece if pending else piece
            end = data.rfind(b"\n")
            if end >= 0:
                body, pending = data[:end], data[end + 1 :]
                first = self.number + 1
                self.number += body.count(b"\n") + 1
                self._check(pending)
                yield first, body
            else:
                pending = data
                self._check(pending)
        self.partial = pending
        self.partial_line = self.number + 1

    def batches(self) -> Iterator[tuple[int, list[bytes]]]:
        """(number of the first line, lines without their newline or carriage return), chunk by chunk.

        The last line comes too when it has no newline (`cut_tail` is then set), unless the stream was
        cut short: then it is surely incomplete, and stays in `partial` for `note_cut_tail`.
        """
        for lines in self._split(strip_cr=True, last=True):
            yield self.number - len(lines) + 1, lines

    def chunks(self) -> Iterator[list[bytes]]:
        """The lines as they are (a `\\r` before a newline kept), chunk by chunk, then the line after
        the last newline, if any, as a chunk of its own; `number` is each chunk's last line."""
        yield from self._split(strip_cr=False, last=False)
        last = self.last_line()
        if last is not None:
            yield [last]

    def last_line(self) -> bytes | None:
        """After `blocks`: `partial` handed over as a line (`number` and `cut_tail` then count it), or
        None when the text ends with its newline."""
        if not self.partial:
            return None
        self.number += 1
        self.cut_tail = True
        return self.partial

    def ends_inside(self, number: int) -> bool:
        """Whether line `number` is the last one and had no newline: perhaps cut, if it reads wrong."""
        return self.cut_tail and number == self.partial_line

    def __iter__(self) -> Iterator[bytes]:
        """The same lines as `chunks`, one at a time; `number` is the line's."""
        for lines in self.chunks():
            first = self.number - len(lines)
            for offset, line in enumerate(lines, 1):
                self.number = first + offset
                yield line

    def _split(self, strip_cr: bool, last: bool) -> Iterator[list[bytes]]:
        """`blocks` as lists of lines: one split of each chunk, no copy of its body first."""
        pending = b""
        comments = self._comments
        for piece in self._text:
            if not self.head:
                self.head = piece[:HEAD_BYTES]
            data = pending + piece if pending else piece
            if strip_cr and b"\r" in data:
                data = data.replace(b"\r", b"")  # a `\r` between lines, or any other: none is kept
            lines = data.split(b"\n")
            pending = lines.pop()
            # `#` alone is a fast memchr and rare in captures; `\n#` is slow where lines are short.
            if comments and b"#" in data and (data[:1] == b"#" or b"\n#" in data):
                lines = [b"" if line[:1] == b"#" else line for line in lines]
            self.number += len(lines)
            self._check(pending)
            if lines:
                yield lines
        self.partial = pending
        self.partial_line = self.number + 1
        if last and not self.cut_short and pending.strip() and not (comments and pending[:1] == b"#"):
            self.number += 1
            self.cut_tail = True
            yield [pending]

    def _check(self, pending: bytes) -> None:
        if len(pending) > MAX_LINE_BYTES:
            raise ParseError(
                self.number + 1, f"a line longer than {MAX_LINE_BYTES >> 20} MiB: not line-oriented text"
            )


def drop_line(lines: TextLines, report: ParseReport, number: int, message: str) -> None:
    """Count line `number` as dropped and say why, or that the file ends inside it when it is the last
    line and has no newline (then the report is marked truncated too)."""
    report.dropped_lines += 1
    if lines.ends_inside(number):
        report.truncated = True
        report.warn(number, CUT_LINE)
    else:
        report.warn(number, message)


def note_cut_tail(lines: TextLines, report: ParseReport, what: str = "line") -> bool:
    """Record a cut tail: a compressed stream that ends early, or a last line without its newline that
    was not handed over (`blocks`; with `batches`, only when the stream was cut short).

    Returns True when that last line holds text, which the caller has dropped.
    """
    dropped = bool(lines.partial.strip()) and not lines.cut_tail
    if lines.cut_short:
        report.truncated = True
        report.warn(lines.partial_line, "the compressed stream ends early; kept the complete lines")
    if dropped:
        report.truncated = True
        report.dropped_lines += 1
        report.warn(lines.partial_line, f"the file ends in the middle of this {what}; dropped it")
    return dropped


def sniff_lines(head: bytes, limit: int = 200, *, comments: bool = False) -> list[bytes] | None:
    """The first lines of a sniffed head, or None when the head is not text at all.

    A head shorter than the sniffing window is the whole file, so its last line is whole too, newline
    or not; a full window may have cut its last line, which is left out. Comment lines (`#` first)
    are left out unless `comments`.
    """
    if looks_like_perf_data(head) or looks_binary(head):
        return None
    lines = head.replace(b"\r\n", b"\n").split(b"\n", limit + 1)
    if len(lines) > limit:
        lines = lines[:limit]
    elif len(head) >= HEAD_BYTES or not lines[-1].strip():
        lines.pop()  # after the final newline, or a line the window may have cut
    if not comments:
        lines = [line for line in lines if line[:1] != b"#"]
    return lines


def looks_binary(head: bytes) -> bool:
    """NUL bytes, or more than 1% of the text not decoding as UTF-8."""
    sample = head[:HEAD_BYTES]
    if b"\0" in sample:
        return True
    bad = sample.decode("utf-8", "replace").count("\ufffd")
    return bad > 4 and bad * 100 > len(sample)


def reject_non_text(head: bytes, format_name: str) -> None:
    """ParseError for a perf.data file or binary junk, named for the format that was expected."""
    perf_data = perf_data_message(head)
    if perf_data is not None:
        raise ParseError(0, perf_data)
    if looks_binary(head):
        raise ParseError(
            0, f"this is binary data, not {format_name} text (a compressed format other than gzip or zstd?)"
        )
