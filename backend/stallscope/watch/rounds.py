"""Watch rounds: the files one round of `stallscope-collect watch` sent, the round nearest a moment
the day before, and the diff that puts the two side by side.

The day before is the baseline a watch stream gives for free: the same host at the same time of
day, before whatever changed (an incident opened from an alert takes it, and so can any incident
whose hosts are watched: `watch/day_before.py`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlencode

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from stallscope.models import Capture

BASELINE_SLACK = timedelta(hours=1)
"""How far from the same time the day before a round may be to stand for it."""
DIFF_VIEW_VERSION = 1
"""The diff page's link version (frontend `DIFF_URL_VERSION`)."""


def round_key(capture: Capture) -> str | None:
    """The watch round a capture belongs to: a round's CPU, off-CPU, /proc and snapshot files share
    `meta.watch.started_at`; None for a capture the collector did not mark."""
    watch = capture.meta.get("watch") if isinstance(capture.meta, dict) else None
    started = watch.get("started_at") if isinstance(watch, dict) else None
    return str(started) if started is not None else None


def rounds_of(session: Session, stream_id: int, chosen: list[Capture]) -> list[Capture]:
    """The stream's captures of the rounds `chosen` belong to, or `chosen` alone when unmarked."""
    rounds = sorted({key for key in map(round_key, chosen) if key is not None})
    if not rounds:
        return chosen
    in_stream = session.scalars(
        select(Capture)
        .where(Capture.incident_id == stream_id, Capture.deleted_at.is_(None))
        .where(Capture.meta["watch"]["started_at"].astext.in_(rounds))
        .order_by(Capture.id)
    )
    return list(in_stream) or chosen


def day_before(session: Session, stream_id: int, at: datetime, exclude: set[int]) -> list[Capture]:
    """The stream's round nearest `at` minus a day (within `BASELINE_SLACK`), whole: the same
    host at the same time of day, before whatever changed."""
    target = at - timedelta(days=1)
    nearest = session.scalars(
        select(Capture)
        .where(
            Capture.incident_id == stream_id,
            Capture.deleted_at.is_(None),
            Capture.status.in_(("ready", "partial")),
            Capture.time_end.is_not(None),
            Capture.time_end.between(target - BASELINE_SLACK, target + BASELINE_SLACK),
            Capture.id.not_in(exclude) if exclude else Capture.id.is_not(None),
        )
        .order_by(func.abs(func.extract("epoch", Capture.time_end - target)))
        .limit(1)
    ).first()
    return [] if nearest is None else rounds_of(session, stream_id, [nearest])


def diff_path(incident_id: int, before: list[Capture], after: list[Capture], source: str) -> str:
    params = {
        "v": str(DIFF_VIEW_VERSION),
        "incident": str(incident_id),
        "a.captures": ",".join(str(c.id) for c in before),
        "b.captures": ",".join(str(c.id) for c in after),
    }
    if source == "off-cpu":
        params["source"] = "off-cpu"
    return f"/diff?{urlencode(params)}"
