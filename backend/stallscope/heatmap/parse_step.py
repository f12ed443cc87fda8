"""The heatmap's part of the parse: each capture's samples counted by 10 ms slice, in the parse's
transaction (`slices.py` says why)."""

from __future__ import annotations

from stallscope.captures.parse_steps import Loaded, ParseStep
from stallscope.heatmap.slices import store_sample_slices


def _store_slices(loaded: Loaded) -> None:
    if not loaded.empty:
        store_sample_slices(loaded.conn, loaded.capture_id)


PARSE_STEP = ParseStep(name="sample slices", tables=("sample_slices",), in_transaction=_store_slices)
