"""Incremental gzip and zstd decoding with bounded work per call, and one policy for odd streams.

The upload meter (`blobs/metering.py`) and the parse-time reader (`kit/compression.py`) both decode
through `StreamDecoder`, so what the server accepts at upload is exactly what the parser reads later:

- Members (gzip) or frames (zstd) that follow one another are one stream, as gzip(1) and zstd(1)
  read them (`cat a.gz b.gz`, several `zstd` runs appended to one file); zstd's skippable frames are
  skipped.
- Zero bytes after the last member are padding (tape blocks, preallocated files) and are ignored
  without a word, as gzip(1) ignores them.
- Other bytes after the last member are trailing garbage: decoding stops there, everything before
  them is kept, and the problem is reported rather than refused. gzip(1), too, decompresses such a
  file and only warns; refusing the upload would throw a whole capture away, at the worst moment,
  for bytes that were never part of it (a line a script appended, the start of a second copy).
- A stream cut off inside a member (a capture killed while writing) or corrupt part-way keeps every
  byte decoded before the damage, and the problem says at which compressed byte it was found.

Only a stream whose damage comes before any decoded byte is refused outright (`CorruptCompression`):
there is nothing to keep, and the sender learns at once that the file is not what it claims to be.

Work is bounded: a `pull` decodes input a slice at a time (16 KiB of gzip, 256 bytes of zstd) until
it has about `max_bytes` of output or needs more input, and every step consumes input or yields
output, so the work done for each input byte is bounded whatever the bytes are. zstd's output per
call cannot be capped, only its input: its worst case, 32,768:1 run-length blocks, is why its slice
is that small (at most 8 MiB out of one slice).
"""

from __future__ import annotations

import enum
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import zstandard

GZIP_INPUT_SLICE = 16 * 1024
ZSTD_INPUT_SLICE = 256
MAGIC_BYTES = 4
"""Enough bytes to tell whether a member starts (gzip's magic is 2 bytes, zstd's 4)."""


class CorruptCompression(OSError):
    """The bytes claim a compression format but no data decompresses from them.

    An OSError, as the standard library's `gzip.BadGzipFile` is: to callers it is a file that cannot
    be read.
    """


class ProblemKind(enum.Enum):
    TRUNCATED = "truncated"
    CORRUPT = "corrupt"
    TRAILING_GARBAGE = "trailing garbage"


@dataclass(frozen=True, slots=True)
class StreamProblem:
    """Why a compressed stream stopped yielding data, and where."""

    kind: ProblemKind
    offset: int
    """The compressed byte the problem was found at."""
    decoded_bytes: int
    """Decompressed bytes delivered before it."""
    message: str

    @property
    def loses_data(self) -> bool:
        """Whether capture data is missing: a cut or damaged member, not bytes after the last one."""
        return self.kind is not ProblemKind.TRAILING_GARBAGE


@dataclass(frozen=True, slots=True)
class _Step:
    output: bytes
    consumed: int
    error: str | None = None
    error_span: int = 1
    """How many bytes, from the end of what was consumed, the error may lie in (zstd: the slice)."""


class _Member(Protocol):
    """One gzip member or zstd frame being decoded."""

    input_slice: int
    whole_slices: bool
    """Step only on whole slices (until the input ends), so the steps do not depend on how the
    input arrived: the meter, fed network chunks, and the reader, fed file reads, then lose the
    same output to an error."""

    @property
    def eof(self) -> bool: ...

    def step(self, data: bytes, max_output: int) -> _Step: ...


class _GzipMember:
    """A gzip member; on an error, replays the slice byte by byte to keep its output and find the byte.

    zlib discards what it decoded in a call that ends in an error, so the step keeps a copy of the
    decoder state (cheap: the 32 KiB window and the tables) to decode that slice again.
    """

    input_slice = GZIP_INPUT_SLICE
    whole_slices = False  # an error is replayed to the byte, so slices never show

    def __init__(self) -> None:
        self._inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)

    @property
    def eof(self) -> bool:
        return self._inflater.eof

    def step(self, data: bytes, max_output: int) -> _Step:
        before = self._inflater.copy()
        try:
            output = self._inflater.decompress(data, max_output)
        except zlib.error as exc:
            return _replay(before, data, _zlib_reason(exc))
        if self._inflater.eof:
            return _Step(output, len(data) - len(self._inflater.unused_data))
        return _Step(output, len(data) - len(self._inflater.unconsumed_tail))


def _replay(inflater: zlib._Decompress, data: bytes, reason: str) -> _Step:
    parts: list[bytes] = []
    for at in range(len(data)):
        try:
            parts.append(inflater.decompress(data[at : at + 1]))
        except zlib.error as exc:
            return _Step(b"".join(parts), at, _zlib_reason(exc))
    return _Step(b"".join(parts), len(data), reason)  # not reached: the same bytes fail the same way


def _zlib_reason(exc: zlib.error) -> str:
    """zlib's own words without its preamble: "Error -3 while decompressing data: invalid …"."""
    return str(exc).rpartition(": ")[2] or str(exc)


class _ZstdFrame:
    """A zstd frame (or skippable frame), fed small slices because its output cannot be capped."""

    input_slice = ZSTD_INPUT_SLICE
    whole_slices = True  # an error loses the output of its whole step

    def __init__(self, decompressor: zstandard.ZstdDecompressor) -> None:
        self._decoder = decompressor.decompressobj()

    @property
    def eof(self) -> bool:
        return bool(self._decoder.eof)

    def step(self, data: bytes, max_output: int) -> _Step:
        try:
            output: bytes = self._decoder.decompress(data)
        except zstandard.ZstdError as exc:
            return _Step(b"", 0, str(exc).removeprefix("zstd decompressor error: "), len(data))
        if self._decoder.eof:
            return _Step(output, len(data) - len(self._decoder.unused_data))
        return _Step(output, len(data))


@dataclass(frozen=True, slots=True)
class StreamFormat:
    """What a stream's members look like and how one is decoded."""

    name: str
    member: str
    starts_member: Callable[[bytes], bool | None]
    """True when a member starts with these bytes, False when not, None when too few to tell."""
    new_member: Callable[[], _Member]


def _starts_with(head: bytes, magic: bytes) -> bool | None:
    if head.startswith(magic):
        return True
    return None if magic.startswith(head) else False


def _gzip_starts(head: bytes) -> bool | None:
    return _starts_with(head, b"\x1f\x8b")


def _zstd_starts(head: bytes) -> bool | None:
    frame = _starts_with(head, b"\x28\xb5\x2f\xfd")
    if frame is not False or not head or head[0] & 0xF0 != 0x50:
        return frame
    return _starts_with(head[1:], b"\x2a\x4d\x18")  # skippable frame: 0x184D2A5? little-endian


def gzip_format() -> StreamFormat:
    return StreamFormat("gzip", "member", _gzip_starts, _GzipMember)


def zstd_format() -> StreamFormat:
    decompressor = zstandard.ZstdDecompressor()  # one context, reused frame after frame
    return StreamFormat("zstd", "frame", _zstd_starts, lambda: _ZstdFrame(decompressor))


class StreamDecoder:
    """Decompress one stream pushed in pieces: `push` input, `pull` output, `close` at its end.

    `pull` returns b"" when it needs more input or when nothing more will come (`done`); then
    `problem` says what, if anything, stopped it early. It never raises for bad input.
    """

    def __init__(self, stream_format: StreamFormat) -> None:
        self._format = stream_format
        self._input = bytearray()
        self._offset = 0
        """Compressed bytes consumed: the offset of `_input[0]`."""
        self._member: _Member | None = None
        self._member_start = 0
        self._padding_start: int | None = None
        self._overflow = b""
        self._overflow_at = 0
        self._closed = False
        self._finished = False
        self.decoded = 0
        self.members = 0
        self.problem: StreamProblem | None = None

    @property
    def done(self) -> bool:
        return self._finished and self._overflow_at >= len(self._overflow)

    def push(self, data: bytes) -> None:
        """Queue compressed bytes; no decoding happens here. Ignored once decoding has stopped."""
        if not self._finished:
            self._input += data

    def close(self) -> None:
        """The input has ended: a member still open is cut off."""
        self._closed = True

    def pull(self, max_bytes: int) -> bytes:
        """Up to `max_bytes` decompressed bytes; b"" when more input is needed or the stream is done.

        Steps until it has half of `max_bytes` or the input runs out: zstd's small slices each give
        little, and handing those out one by one cost more than decoding them; a gzip step mostly
        gives that much alone, and is then handed out without a copy.
        """
        if self._overflow_at < len(self._overflow):
            return self._from_overflow(max_bytes)
        parts: list[bytes] = []
        size = 0
        while not self._finished and size < max(max_bytes // 2, 1):
            member = self._member
            if member is None:
                if not self._next_member():
                    break
                continue
            if not self._closed and len(self._input) < (member.input_slice if member.whole_slices else 1):
                break
            if not self._input:
                self._stop(ProblemKind.TRUNCATED, self._offset, "")
                break
            output = self._step(member, max_bytes - size)
            if output:
                parts.append(output)
                size += len(output)
        return self._deliver(b"".join(parts) if len(parts) != 1 else parts[0], max_bytes)

    def _step(self, member: _Member, max_bytes: int) -> bytes:
        step = member.step(bytes(self._input[: member.input_slice]), max_bytes)
        self._consume(step.consumed)
        self.decoded += len(step.output)
        if step.error is not None:
            where = self._offset
            span = f"byte {where:,}"
            if step.error_span > 1:
                span = f"bytes {where:,}-{where + step.error_span - 1:,}"
            self._stop(ProblemKind.CORRUPT, where, f"{step.error}, found at {span}")
        elif member.eof:
            self._member = None
        elif not step.output and not step.consumed:
            # Cannot happen with zlib or zstd; should it ever, this ends the loop that steps.
            self._stop(ProblemKind.CORRUPT, self._offset, "the decoder stopped making progress")
        return step.output

    def _next_member(self) -> bool:
        """Start the next member, skip padding, or stop at garbage; False when more input is needed."""
        if self._padding_start is not None or self._input[:1] == b"\0":
            if self._padding_start is None:
                self._padding_start = self._offset
            self._consume(len(self._input) - len(self._input.lstrip(b"\0")))
            if self._input:
                self._stop(ProblemKind.TRAILING_GARBAGE, self._padding_start, "")
                return True
        if not self._input:
            if self._closed:
                self._finished = True
            return self._closed
        starts = self._format.starts_member(bytes(self._input[:MAGIC_BYTES]))
        if starts is None and not self._closed:
            return False
        if not starts:
            kind = ProblemKind.TRAILING_GARBAGE if self.members else ProblemKind.CORRUPT
            self._stop(kind, self._offset, f"no {self._format.name} header at byte {self._offset:,}")
            return True
        self._member = self._format.new_member()
        self._member_start = self._offset
        self.members += 1
        return True

    def _consume(self, count: int) -> None:
        del self._input[:count]
        self._offset += count

    def _stop(self, kind: ProblemKind, offset: int, detail: str) -> None:
        self.problem = StreamProblem(kind, offset, self.decoded, self._describe(kind, offset, detail))
        self._finished = True
        self._member = None
        self._input = bytearray()

    def _describe(self, kind: ProblemKind, offset: int, detail: str) -> str:
        name, member = self._format.name, self._format.member
        if kind is ProblemKind.TRAILING_GARBAGE:
            return (
                f"ignored the bytes from byte {offset:,} on: they follow the last {name} {member} "
                "but are not compressed data (trailing garbage)"
            )
        if kind is ProblemKind.TRUNCATED:
            what = (
                f"the {name} data is cut off at byte {offset:,}, inside the {member} that starts at "
                f"byte {self._member_start:,}"
            )
        else:
            what = f"the {name} data is corrupt ({detail})"
        if self.decoded == 0:
            return f"{what}; nothing decompresses from it"
        return f"{what}; the {self.decoded:,} bytes decompressed before it were kept, the rest is lost"

    def _deliver(self, output: bytes, max_bytes: int) -> bytes:
        if len(output) <= max_bytes:
            return output
        self._overflow, self._overflow_at = output, max_bytes
        return output[:max_bytes]

    def _from_overflow(self, max_bytes: int) -> bytes:
        start = self._overflow_at
        self._overflow_at = min(start + max_bytes, len(self._overflow))
        piece = self._overflow[start : self._overflow_at]
        if self._overflow_at >= len(self._overflow):
            self._overflow, self._overflow_at = b"", 0
        return piece
