"""What an API process has not yet cached when it answers a view for the first time after a parse.

Benchmarks clear these before each "first request": the captures' call-site trees and sample arrays,
weighed views, encoded answers, frame names, and the diff's merged trees (all read again from the
database on demand).
"""

from __future__ import annotations


def clear() -> None:
    from stallscope.diff import service as diff_service
    from stallscope.flame import callsite_trees, sample_times
    from stallscope.flame import service as flame_service
    from stallscope.flame.catalog import catalog

    callsite_trees.trees.clear()
    sample_times.clear_cache()
    flame_service.clear_caches()
    diff_service.clear_caches()
    catalog.clear()
