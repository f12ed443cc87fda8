"""Cut a byte stream into blocks of whole lines, so that a file of any size is redacted a block at a
time and no pattern ever sees half a line (or half a UTF-8 character: a cut follows a newline)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

BLOCK_BYTES = 1 << 20
"""Big enough that one regular-expression pass amortises its set-up, small enough to stay in cache."""
MAX_LINE_BYTES = 16 << 20
"""A "line" longer than this is cut at its last space or tab (or, lacking one, anywhere): memory stays
bounded on input with no newlines, at the price of a value split across the cut."""


def text_blocks(chunks: Iterable[bytes]) -> Iterator[bytes]:
    buffer = bytearray()
    for chunk in chunks:
        buffer += chunk
        while len(buffer) >= BLOCK_BYTES:
            cut = buffer.rfind(b"\n", 0, BLOCK_BYTES) + 1 or buffer.find(b"\n", BLOCK_BYTES) + 1
            if not cut:
                if len(buffer) < MAX_LINE_BYTES:
                    break
                cut = max(buffer.rfind(b" "), buffer.rfind(b"\t")) + 1 or len(buffer)
            yield bytes(buffer[:cut])
            del buffer[:cut]
    if buffer:
        yield bytes(buffer)
