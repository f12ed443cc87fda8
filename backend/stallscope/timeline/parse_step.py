"""The timeline's part of the parse: its rollups, built from the rows just written, in the parse's
transaction (`rollups.py` says why they exist)."""

from __future__ import annotations

from stallscope.captures.parse_steps import Loaded, ParseStep
from stallscope.timeline.rollups import refresh_timeline_rollups


def _build_rollups(loaded: Loaded) -> None:
    if not loaded.empty:  # a blank upload has nothing to roll up, and no manifest says it was
        refresh_timeline_rollups(loaded.conn, loaded.capture_id)


PARSE_STEP = ParseStep(name="timeline rollups", tables=("timeline_rollups",), in_transaction=_build_rollups)
