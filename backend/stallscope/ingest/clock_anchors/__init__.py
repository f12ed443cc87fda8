"""Clock anchor files: pairs of capture-clock and CLOCK_REALTIME readings that align a host.

Accepted shapes (see README.md): a table with a header (CSV, TSV, `;` or whitespace separated) naming
a capture-clock column (`monotonic_ns`, `CLOCK_MONOTONIC`, `uptime_s`, `perf_clock`…) and a realtime
column (`realtime_ns`, `wall`, `epoch_s`, an ISO 8601 `date`…); the collector's `clock.json`
(`{"perf_clock": …, "anchors": [{"monotonic_ns": …, "realtime_ns": …}]}`); a JSON list or JSON
lines of such pairs. Clock NONE: the file aligns others and is on no axis itself.
"""

from stallscope.ingest.clock_anchors.detect import detect
from stallscope.ingest.clock_anchors.parser import DOCUMENT_KIND, parse_anchor_file
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("clock-anchors", detect, parse_anchor_file, CaptureClock.NONE)

__all__ = ["DOCUMENT_KIND", "IMPORTER"]
