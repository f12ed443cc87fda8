"""Walk one JSON document forward from a byte stream, holding only a window of it in memory.

The standard library decodes whole documents, and a range query over many series runs to hundreds of
megabytes, several times that as Python objects. This walker reads the structure itself (objects as
key-by-key members, arrays as elements) and hands small values to `json`'s `raw_decode`, so the
importer decides what to keep and memory stays at the window plus one small value. Line numbers are
tracked for warnings (pretty-printed documents have many lines; API responses have one).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

from stallscope.ingest.model import ParseError

CHUNK_CHARS = 1 << 20
MAX_VALUE_CHARS = 64 << 20
"""A single value decoded whole (a label set, a status) larger than this is refused."""
MAX_DEPTH = 64
"""Arrays and objects skipped inside each other deeper than this are refused: a query result nests
four deep, and each level skipped takes a few frames of the interpreter's stack."""
_SPACE = re.compile(r"[ \t\n\r]*")


class JsonStream:
    """A read position in a JSON text that arrives in chunks; `buf[pos:]` is what is still unread."""

    def __init__(self, stream: BinaryIO, chunk_chars: int | None = None) -> None:
        self._stream = stream
        self._chunk = chunk_chars or CHUNK_CHARS
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._decoder = json.JSONDecoder()
        self.buf = ""
        self.pos = 0
        self.eof = False
        self._dropped = 0
        self._line = 1
        self._line_pos = 0
        self._depth = 0

    def fill(self) -> bool:
        """Append the next chunk, dropping what has been read; False at the end of the stream."""
        if self.eof:
            return False
        data = self._stream.read(self._chunk)
        text = self._utf8.decode(data, final=not data)
        if not data:
            self.eof = True
        if self.pos:
            self._line += self.buf.count("\n", self._line_pos, self.pos)
            self._dropped += self.pos
            self.buf, self._line_pos, self.pos = self.buf[self.pos :], 0, 0
        self.buf += text
        return bool(data) or bool(text)

    @property
    def offset(self) -> int:
        """Characters read so far: it only grows, whatever the window does."""
        return self._dropped + self.pos

    def line(self) -> int:
        """The 1-based line of the read position."""
        self._line += self.buf.count("\n", self._line_pos, self.pos)
        self._line_pos = self.pos
        return self._line

    def peek(self) -> str:
        """The next character that is not white space ("" at the end), without consuming it."""
        while True:
            self.pos = _SPACE.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.fill():
                return ""

    def expect(self, char: str) -> None:
        found = self.peek()
        if found != char:
            raise ParseError(
                self.line(), f"expected {char!r} in the JSON, found {found or 'the end of the file'!r}"
            )
        self.pos += 1

    def value(self) -> Any:
        """Decode the next value whole (meant for small ones: labels, strings, numbers)."""
        self.peek()
        while True:
            try:
                value, end = self._decoder.raw_decode(self.buf, self.pos)
            except RecursionError:
                raise ParseError(self.line(), "a JSON value nested too deeply") from None
            except json.JSONDecodeError as exc:
                if self.eof:
                    raise ParseError(self.line(), f"the JSON ends too early or is broken: {exc.msg}") from exc
                if len(self.buf) - self.pos > MAX_VALUE_CHARS:
                    raise ParseError(
                        self.line(), f"a JSON value larger than {MAX_VALUE_CHARS >> 20} MiB"
                    ) from exc
                self.fill()
                continue
            except ValueError:  # an integer of more digits than int() reads
                raise ParseError(self.line(), "a number in the JSON has too many digits to read") from None
            if end == len(self.buf) and not self.eof and self.fill():
                continue  # a number cut by the window may go on in the next chunk
            self.pos = end
            return value

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here; the caller reads (or ignores) each value."""
        self.expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            key = self.value()
            if not isinstance(key, str):
                raise ParseError(self.line(), f"expected an object key, found {key!r}")
            self.expect(":")
            self.peek()
            start = self.offset
            yield key
            if self.offset == start:
                self.skip()
            if not self._next_or_end("}"):
                return

    def elements(self) -> Iterator[None]:
        """Step through the array that starts here; the caller reads (or ignores) each element."""
        self.expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            self.peek()
            start = self.offset
            yield None
            if self.offset == start:
                self.skip()
            if not self._next_or_end("]"):
                return

    def skip(self) -> None:
        """Read past the next value, nested objects and arrays a member at a time."""
        char = self.peek()
        if char not in ("{", "["):
            self.value()
            return
        if self._depth >= MAX_DEPTH:
            raise ParseError(self.line(), f"JSON nested more than {MAX_DEPTH} deep")
        self._depth += 1
        for _ in self.members() if char == "{" else self.elements():
            pass
        self._depth -= 1

    def _next_or_end(self, closer: str) -> bool:
        char = self.peek()
        self.pos += 1
        if char == ",":
            return True
        if char == closer:
            return False
        raise ParseError(
            self.line(), f"expected ',' or {closer!r} in the JSON, found {char or 'the end of the file'!r}"
        )
