"""Recognise `perf script` output of scheduler switches: perf script text naming `sched:sched_switch`.

Tried before the generic perf script importer, which would take the same text as plain samples.
"""

from __future__ import annotations

from stallscope.ingest.perf_script import detect as detect_perf_script

SWITCH_EVENT = b"sched:sched_switch:"


def detect(head: bytes) -> bool:
    return SWITCH_EVENT in head and detect_perf_script(head)
