"""Importers for application metrics: CSV, JSON lines, Prometheus query results, and the collector's
/proc sampler output (`stallscope-proc`).

Each format is a subpackage exposing `IMPORTER`; `IMPORTERS` lists them in the order the registry
must try them: the sampler's header before generic JSON lines (its records would pass for long-form
JSON lines), Prometheus before JSON lines, and CSV, the most permissive, last. Times are epoch
nanoseconds (UTC), so every importer's clock is REALTIME. Series names are the file's own; units are
guessed from the name's last word where it is unambiguous (`latency_ms` -> `ms`, see `units`). The
time column (or key) is found by name, by content or as the first column (`time_columns`), unless the
upload names it (`time_column`, see `time_option`). `CSV_EVENTS` reads the events shape of CSV.

A note on how timestamps were read (`timestamps: epoch milliseconds`) is reported as a warning on
line 0, as `ParseReport` has no place for notes yet.
"""

from stallscope.ingest.appmetrics import csv_events, csv_metrics, jsonl_metrics, proc_sampler, prometheus
from stallscope.ingest.registry import Importer

IMPORTERS: tuple[Importer, ...] = (
    proc_sampler.IMPORTER,
    prometheus.IMPORTER,
    jsonl_metrics.IMPORTER,
    csv_metrics.IMPORTER,
)
CSV_EVENTS = csv_events.IMPORTER
"""Timed events in CSV (`time,event,duration_us,…`): tried right before the metrics CSV, which would
read such a file as series beside a text column."""

__all__ = ["CSV_EVENTS", "IMPORTERS"]
