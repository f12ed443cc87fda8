"""Removing the stored uploads a purge left without a capture.

Blobs are not transactional, so they go after the purge commits: a crash in between leaves blobs no
capture refers to, and the periodic orphan sweep (`maintenance/jobs.py`) removes those an hour
later. Blobs are content-addressed and two captures may share one, so each is checked against the
captures that remain (in the trash or not) right before it goes.

An upload of the same bytes may meet the blob while the purge runs: it touches the blob
(`blobs/store.py`) before recording its capture. A blob touched after the purge began is left for
the orphan sweep, which waits an hour before removing anything.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from sqlalchemy.orm import Session

from stallscope.blobs.store import BlobStore
from stallscope.lifecycle import repository

log = logging.getLogger(__name__)


def remove_unreferenced(session: Session, store: BlobStore, shas: Iterable[str], purge_started: float) -> int:
    """Delete the blobs of `shas` that no capture refers to any more; returns how many went.

    Call after the purge committed; `purge_started` is `time.time()` taken before it began.
    """
    candidates = {sha for sha in shas if sha}
    if not candidates:
        return 0
    keep = repository.referenced_shas(session, candidates)
    session.rollback()  # a read only: end it, so no transaction stays open while blobs go
    removed = 0
    for sha in sorted(candidates - keep):
        if store.remove_unless_touched(sha, purge_started):
            removed += 1
        else:
            log.info(
                "blob %s is gone or was met by an upload during the purge; the orphan sweep decides", sha
            )
    return removed
