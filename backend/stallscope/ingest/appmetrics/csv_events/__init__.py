"""Importer for timed events in CSV: a row per event with its time, name and duration, and counters.

`time,event,duration_us,bytes,pid` as an application or a script logs its slow operations (an fsync,
a request, a lock wait, a checkpoint). Each row becomes a `TimedEvent` of kind `function` (a named
operation that took a while), so it is listed in the events table and drawn on the timeline's
latency track of its name; columns it does not recognise are kept in the event's `attrs`.
"""

from stallscope.ingest.appmetrics.csv_events.detect import detect
from stallscope.ingest.appmetrics.csv_events.parser import parse_events_csv
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("events-csv", detect, parse_events_csv, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_events_csv"]
