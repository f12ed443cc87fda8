"""The few pieces of the protocol-buffer wire format an encoder needs, written out by hand.

pprof is the only protobuf we write, and its messages use three wire shapes: varints, length-
delimited payloads (strings, nested messages) and packed repeated varints. A dependency on a
protobuf runtime and generated code would cost more than these forty lines.
"""

from __future__ import annotations

from collections.abc import Iterable

VARINT = 0
LENGTH_DELIMITED = 2
_UINT64 = (1 << 64) - 1
_SMALL = [bytes([n]) for n in range(0x80)]


def varint(value: int) -> bytes:
    """Base-128 little-endian; a negative int64 is written as its 64-bit two's complement (10 bytes)."""
    if 0 <= value < 0x80:
        return _SMALL[value]
    value &= _UINT64
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def key(field: int, wire_type: int) -> bytes:
    return varint((field << 3) | wire_type)


def uint_field(field: int, value: int) -> bytes:
    """A varint field; zero is the default and is left out, as proto3 encoders do."""
    return key(field, VARINT) + varint(value) if value else b""


def bytes_field(field: int, payload: bytes) -> bytes:
    """A length-delimited field (a string's UTF-8 bytes or a nested message); always written."""
    return key(field, LENGTH_DELIMITED) + varint(len(payload)) + payload


def packed_field(field: int, values: Iterable[int]) -> bytes:
    """A packed repeated varint field; nothing at all when there are no values."""
    payload = b"".join(map(varint, values))
    return bytes_field(field, payload) if payload else b""
