"""Call-site trees kept in the database: built once after a parse, read back by every process.

Building a deep capture's tree reads every stack's frames and interns a few million prefixes (about
a second); reading the stored arrays back takes milliseconds. A tree is stored for the parse it was
built from (`parsed_at`) and in a `FORMAT`: a stored tree of another parse or format is rebuilt.
"""

from __future__ import annotations

import json
import logging
import struct
from datetime import datetime

import numpy as np
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.callsites import TREE_ARRAYS, CallsiteTree
from stallscope.db import session_connection

log = logging.getLogger(__name__)

FORMAT = 4
"""Bump when `CallsiteTree`'s arrays change meaning: stored trees of other formats are rebuilt."""
ALIGN = 8
"""Each array starts at a multiple of this: read in place, an int64 array must be aligned."""
EXTRA = "extra."
"""Prefix of the arrays stored beside a tree (`to_bytes(extra=...)`): the diff's parts of it."""

Arrays = dict[str, np.ndarray]


def to_bytes(tree: CallsiteTree, extra: Arrays | None = None) -> bytes:
    """The tree's arrays (`pack`, with the events of its whole-capture weights in the header),
    `extra` arrays after them."""
    arrays: Arrays = {name: getattr(tree, name) for name in TREE_ARRAYS}
    events = sorted(tree.whole)
    for i, event in enumerate(events):
        arrays[f"whole_weights_{i}"], arrays[f"whole_samples_{i}"] = tree.whole[event]
    arrays.update({EXTRA + name: array for name, array in (extra or {}).items()})
    return pack(arrays, {"events": events})


def pack(arrays: Arrays, head: dict[str, object]) -> bytes:
    """A JSON header (`head`, and each array's name, dtype, length and offset), then the arrays'
    bytes as they are in memory.

    Read back with `np.frombuffer`, in place: no archive to unpack, no copy (npz took three times
    as long to read as the rows took to arrive).
    """
    index: list[list[object]] = []
    parts: list[bytes] = []
    offset = 0
    for name, array in arrays.items():
        raw = np.ascontiguousarray(array).tobytes()
        index.append([name, array.dtype.str, len(array), offset])
        padding = -len(raw) % ALIGN
        parts.append(raw + bytes(padding))
        offset += len(raw) + padding
    encoded = json.dumps({**head, "arrays": index}).encode()
    encoded += bytes(-(len(encoded) + 4) % ALIGN)
    return struct.pack("<I", len(encoded)) + encoded + b"".join(parts)


def unpack(data: bytes) -> tuple[dict[str, object], Arrays]:
    """The header and arrays of `pack`, the arrays read in place (read-only views of `data`)."""
    (head_size,) = struct.unpack_from("<I", data)
    head: dict[str, object] = json.loads(data[4 : 4 + head_size].rstrip(b"\0"))
    base = 4 + head_size
    listed = head["arrays"]
    assert isinstance(listed, list)
    arrays = {
        name: np.frombuffer(data, dtype=np.dtype(dtype), count=count, offset=base + offset)
        for name, dtype, count, offset in listed
    }
    return head, arrays


def from_bytes(data: bytes, comms: list[str]) -> CallsiteTree:
    """The tree of `to_bytes`. Its arrays are read in place when nothing else is stored with it, else
    copied out, so that a tree kept alone does not keep the extra arrays' bytes alive."""
    head, arrays = unpack(data)
    if any(name.startswith(EXTRA) for name in arrays):
        arrays = {name: array.copy() for name, array in arrays.items() if not name.startswith(EXTRA)}
    return _tree(head, arrays, comms)


def tree_and_extras_from_bytes(data: bytes, comms: list[str]) -> tuple[CallsiteTree, Arrays]:
    """The tree of `to_bytes` and its `extra` arrays, all read in place (kept together, they keep
    the bytes alive together: nothing is copied)."""
    head, arrays = unpack(data)
    extras = {name[len(EXTRA) :]: array for name, array in arrays.items() if name.startswith(EXTRA)}
    return _tree(head, arrays, comms), extras


def _tree(head: dict[str, object], arrays: Arrays, comms: list[str]) -> CallsiteTree:
    events = head["events"]
    assert isinstance(events, list)
    whole = {
        event: (arrays[f"whole_weights_{i}"], arrays[f"whole_samples_{i}"]) for i, event in enumerate(events)
    }
    return CallsiteTree(
        parent=arrays["parent"],
        key=arrays["key"],
        level_starts=arrays["level_starts"],
        comms=tuple(comms),
        pair_keys=arrays["pair_keys"],
        pair_leaf=arrays["pair_leaf"],
        whole=whole,
    )


def _stored(session: Session, capture_id: int, parsed_at: datetime | None) -> tuple[list[str], bytes] | None:
    """The stored comms and bytes of this parse's tree, read in PostgreSQL's binary format on the
    session's own connection (its transaction): as text a `bytea` travels hex-encoded, twice its
    size, and decoding it took 12 ms of the 14 a 2.6 MB tree took to read."""
    with session_connection(session).cursor(binary=True) as cursor:
        cursor.execute(
            "SELECT comms, arrays FROM capture_callsite_trees "
            "WHERE capture_id = %s AND parsed_at = %s AND format = %s",
            (capture_id, parsed_at, FORMAT),
        )
        row = cursor.fetchone()
    if row is None:
        return None
    comms, arrays = row
    return list(comms), bytes(arrays)


def load(session: Session, capture_id: int, parsed_at: datetime | None) -> CallsiteTree | None:
    """The stored tree of this parse of the capture, or None."""
    stored = _stored(session, capture_id, parsed_at)
    return None if stored is None else from_bytes(stored[1], stored[0])


def load_with_extras(
    session: Session, capture_id: int, parsed_at: datetime | None
) -> tuple[CallsiteTree, Arrays] | None:
    """The stored tree of this parse and the arrays stored beside it, in one read, or None."""
    stored = _stored(session, capture_id, parsed_at)
    return None if stored is None else tree_and_extras_from_bytes(stored[1], stored[0])


def store(
    session: Session, capture_id: int, parsed_at: datetime, tree: CallsiteTree, extra: Arrays | None = None
) -> None:
    """Keep the tree of this parse (replacing any other), with `extra` arrays; the caller commits."""
    session.execute(
        text(
            "INSERT INTO capture_callsite_trees (capture_id, parsed_at, format, comms, arrays) "
            "VALUES (:id, :parsed_at, :format, :comms, :arrays) ON CONFLICT (capture_id) DO UPDATE "
            "SET parsed_at = excluded.parsed_at, format = excluded.format, comms = excluded.comms, "
            "arrays = excluded.arrays, sample_times = NULL"  # stored after, against this tree
        ),
        {
            "id": capture_id,
            "parsed_at": parsed_at,
            "format": FORMAT,
            "comms": list(tree.comms),
            "arrays": to_bytes(tree, extra),
        },
    )
