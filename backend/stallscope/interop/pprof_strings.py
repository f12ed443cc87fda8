"""Rewrite every string of a pprof profile, leaving the rest byte for byte: redaction of a profile.

Every name in a pprof profile (functions, label values, mapping files, comments, sample types)
lives in its string table, and only there. Passing each entry through a text rewrite redacts the
whole profile without decoding what refers to the strings (it refers by index, and indexes do not
move); two entries that become equal stay two entries, which pprof reads without complaint.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable

from stallscope.interop.pprof import GZIP_LEVEL
from stallscope.interop.protobuf import LENGTH_DELIMITED, VARINT, bytes_field

STRING_TABLE_FIELD = 6
_FIXED_SIZES = {1: 8, 5: 4}


def _varint_at(data: bytes, at: int) -> tuple[int, int]:
    """The varint starting at `at`, and where the next field starts."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def rewrite_strings(profile_gz: bytes, rewrite: Callable[[str], str]) -> bytes:
    """The gzipped profile with every string-table entry replaced by `rewrite(entry)`.

    The empty string stays first and empty, as the format requires. Raises ValueError on data that
    is not a profile's wire format.
    """
    data = gzip.decompress(profile_gz)
    out: list[bytes] = []
    at = 0
    try:
        while at < len(data):
            start = at
            key, at = _varint_at(data, at)
            field, wire_type = key >> 3, key & 7
            if wire_type == VARINT:
                _, at = _varint_at(data, at)
            elif wire_type == LENGTH_DELIMITED:
                size, body = _varint_at(data, at)
                at = body + size
                if field == STRING_TABLE_FIELD:
                    text = data[body:at].decode("utf-8", "surrogateescape")
                    new = rewrite(text) if text else text
                    out.append(bytes_field(field, new.encode("utf-8", "surrogateescape")))
                    continue
            elif wire_type in _FIXED_SIZES:
                at += _FIXED_SIZES[wire_type]
            else:
                raise ValueError(f"wire type {wire_type} at byte {start} is not in a pprof profile")
            if at > len(data):
                raise ValueError(f"field {field} at byte {start} runs past the end")
            out.append(data[start:at])
    except IndexError as exc:
        raise ValueError("the profile ends inside a field") from exc
    return gzip.compress(b"".join(out), compresslevel=GZIP_LEVEL, mtime=0)
