"""Importer for `perf script` output of scheduler tracepoints: OFF_CPU and ON_CPU intervals."""

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer
from stallscope.ingest.sched.detect import detect
from stallscope.ingest.sched.parser import parse_sched

IMPORTER = Importer("perf-sched", detect, parse_sched, CaptureClock.MONOTONIC)

__all__ = ["IMPORTER", "detect", "parse_sched"]
