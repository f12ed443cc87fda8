"""Call-site trees kept in the database: built once after a parse, read back by every process.

Building a deep capture's tree reads every stack's frames and interns a few million prefixes (about
a second); reading the stored arrays back takes milliseconds. A tree is stored for the parse it was
built from (`parsed_at`) and in a `FORMAT`: a stored tree of another parse or format is rebuilt.
"""

from __future__ import annotations

import io
import logging
from datetime import datetime

import numpy as np
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.callsites import CallsiteTree

log = logging.getLogger(__name__)

FORMAT = 2
"""Bump when `CallsiteTree`'s arrays change meaning: stored trees of other formats are rebuilt."""
ARRAYS = ("parent", "key", "level_starts", "pair_keys", "pair_leaf")


def to_bytes(tree: CallsiteTree) -> bytes:
    buffer = io.BytesIO()
    arrays = {name: getattr(tree, name) for name in ARRAYS}
    events = sorted(tree.whole)
    arrays["whole_events"] = np.array(events, dtype=str)
    for i, event in enumerate(events):
        arrays[f"whole_weights_{i}"], arrays[f"whole_samples_{i}"] = tree.whole[event]
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def from_bytes(data: bytes, comms: list[str]) -> CallsiteTree:
    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        whole = {
            str(event): (arrays[f"whole_weights_{i}"], arrays[f"whole_samples_{i}"])
            for i, event in enumerate(arrays["whole_events"].tolist())
        }
        return CallsiteTree(**{name: arrays[name] for name in ARRAYS}, comms=tuple(comms), whole=whole)


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
