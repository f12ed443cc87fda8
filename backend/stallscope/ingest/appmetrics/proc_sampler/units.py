"""Units of the proc sampler's series, from their names, so new series get one without a code change."""

from __future__ import annotations

import functools

from stallscope.ingest.appmetrics.units import unit_from_name


@functools.lru_cache(maxsize=4096)
def proc_unit(name: str) -> str | None:
    """`cpu.*` percent of the tick, `mem.*` KiB (hugepage counts aside), `disk.*` and context
    switches per second, PSI averages percent and totals µs; anything else by its last word."""
    family, _, rest = name.partition(".")
    if family == "cpu":
        return "%"
    if family == "mem":
        lowered = rest.lower()
        return None if lowered.startswith("hugepages_") and lowered != "hugepagesize" else "KiB"
    if family == "pressure":
        return "µs" if rest.endswith(".total") else "%"
    if family == "disk":
        if rest.endswith("_bytes"):
            return "B/s"
        return "ms/s" if rest.endswith("_ms") else "/s"
    if name.startswith("thread.ctx_switches."):
        return "/s"
    if name == "thread.state":
        return None
    return unit_from_name(name)
