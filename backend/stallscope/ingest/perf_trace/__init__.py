"""Importers for `perf trace` output: SYSCALL events, relative times or `-T` times since boot."""

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.perf_trace.detect import detect, detect_absolute
from stallscope.ingest.perf_trace.parser import parse_perf_trace
from stallscope.ingest.registry import Importer

IMPORTER = Importer("perf-trace", detect, parse_perf_trace, CaptureClock.RELATIVE)
ABSOLUTE_IMPORTER = Importer("perf-trace-T", detect_absolute, parse_perf_trace, CaptureClock.MONOTONIC)
"""`perf trace -T`: milliseconds on perf's clock (since boot), so placed like perf script times."""

__all__ = ["ABSOLUTE_IMPORTER", "IMPORTER", "detect", "detect_absolute", "parse_perf_trace"]
