"""The flame graph's part of the parse: the capture's call-site tree, built once the parse has
committed, so the first flame graph of it does not build it.

Optional: when it fails the first view builds (and stores) it, only slower.
"""

from __future__ import annotations

import logging
import time

from sqlalchemy import text

from stallscope.captures.parse_steps import Committed, ParseStep
from stallscope.db import get_session_factory
from stallscope.flame.callsite_trees import build_and_store

log = logging.getLogger(__name__)


def _store_callsite_tree(committed: Committed) -> None:
    capture_id = committed.capture_id
    started = time.monotonic()
    try:
        with get_session_factory(committed.database_url)() as session:
            parsed_at = session.execute(
                text("SELECT parsed_at FROM captures WHERE id = :id"), {"id": capture_id}
            ).scalar_one_or_none()
            if parsed_at is None:
                return
            tree = build_and_store(session, capture_id, parsed_at)
            session.commit()
    except Exception:
        log.exception(
            "the call-site tree of capture %s was not stored; its first view will build it", capture_id
        )
        return
    log.info(
        "call-site tree of capture %s: %d nodes in %.2f s",
        capture_id,
        tree.node_count,
        time.monotonic() - started,
    )


PARSE_STEP = ParseStep(
    name="call-site tree", tables=("capture_callsite_trees",), after_commit=_store_callsite_tree
)
