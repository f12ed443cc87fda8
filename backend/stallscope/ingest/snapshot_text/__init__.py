"""Plain-text system snapshots: the files and command outputs scripts print under section headers,
mapped into the collector's snapshot model where this importer knows them and kept as text otherwise.

    == /sys/kernel/mm/transparent_hugepage/defrag ==      # also `==> path <==` (head -v)
    [always] defer defer+madvise madvise never
    # /proc/sys/vm/dirty_ratio                            # `#` style
    ---- sysctl -a ----                                   # `----` style, named by command or content

Headerless `sysctl -a` and `grep -r . /proc/sys/vm` output are snapshots too. One document per take
(`==== start ====` / `==== end ====`, or the same sections printed twice).
"""

from __future__ import annotations

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer
from stallscope.ingest.snapshot_text.detect import detect
from stallscope.ingest.snapshot_text.parser import parse_snapshot_text

IMPORTER = Importer("snapshot-text", detect, parse_snapshot_text, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_snapshot_text"]
