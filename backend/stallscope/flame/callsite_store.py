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

from stallscope.analysis.callsites import CallsiteTree

log = logging.getLogger(__name__)

FORMAT = 3
"""Bump when `CallsiteTree`'s arrays change meaning: stored trees of other formats are rebuilt."""
ARRAYS = ("parent", "key", "level_starts", "pair_keys", "pair_leaf")
ALIGN = 8
"""Each array starts at a multiple of this: read in place, an int64 array must be aligned."""


def to_bytes(tree: CallsiteTree) -> bytes:
    """A JSON header (each array's name, dtype, length and offset, and the events of the whole-capture
    weights), then the arrays' bytes as they are in memory.

    Read back with `np.frombuffer`, in place: no archive to unpack, no copy (npz took three times
    as long to read as the rows took to arrive).
    """
    arrays: dict[str, np.ndarray] = {name: getattr(tree, name) for name in ARRAYS}
    events = sorted(tree.whole)
    for i, event in enumerate(events):
        arrays[f"whole_weights_{i}"], arrays[f"whole_samples_{i}"] = tree.whole[event]
    index: list[list[object]] = []
    parts: list[bytes] = []
    offset = 0
    for name, array in arrays.items():
        raw = np.ascontiguousarray(array).tobytes()
        index.append([name, array.dtype.str, len(array), offset])
        padding = -len(raw) % ALIGN
        parts.append(raw + bytes(padding))
        offset += len(raw) + padding
    head = json.dumps({"arrays": index, "events": events}).encode()
    head += bytes(-(len(head) + 4) % ALIGN)
    return struct.pack("<I", len(head)) + head + b"".join(parts)


def from_bytes(data: bytes, comms: list[str]) -> CallsiteTree:
    (head_size,) = struct.unpack_from("<I", data)
    head = json.loads(data[4 : 4 + head_size].rstrip(b"\0"))
    base = 4 + head_size
    arrays = {
        name: np.frombuffer(data, dtype=np.dtype(dtype), count=count, offset=base + offset)
        for name, dtype, count, offset in head["arrays"]
    }
    whole = {
        event: (arrays[f"whole_weights_{i}"], arrays[f"whole_samples_{i}"])
        for i, event in enumerate(head["events"])
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


def load(session: Session, capture_id: int, parsed_at: datetime | None) -> CallsiteTree | None:
    """The stored tree of this parse of the capture, or None."""
    row = session.execute(
        text(
            "SELECT comms, arrays FROM capture_callsite_trees "
            "WHERE capture_id = :id AND parsed_at = :parsed_at AND format = :format"
        ),
        {"id": capture_id, "parsed_at": parsed_at, "format": FORMAT},
    ).first()
    if row is None:
        return None
    return from_bytes(bytes(row.arrays), list(row.comms))


def store(session: Session, capture_id: int, parsed_at: datetime, tree: CallsiteTree) -> None:
    """Keep the tree of this parse (replacing any other); the caller commits."""
    session.execute(
        text(
            "INSERT INTO capture_callsite_trees (capture_id, parsed_at, format, comms, arrays) "
            "VALUES (:id, :parsed_at, :format, :comms, :arrays) ON CONFLICT (capture_id) DO UPDATE "
            "SET parsed_at = excluded.parsed_at, format = excluded.format, comms = excluded.comms, "
            "arrays = excluded.arrays"
        ),
        {
            "id": capture_id,
            "parsed_at": parsed_at,
            "format": FORMAT,
            "comms": list(tree.comms),
            "arrays": to_bytes(tree),
        },
    )
