"""Importer for DTrace aggregations keyed by a stack (`@[ustack()] = count()`): samples, no times."""

from stallscope.ingest.dtrace.detect import detect
from stallscope.ingest.dtrace.parser import parse_dtrace
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("dtrace", detect, parse_dtrace, CaptureClock.NONE)

__all__ = ["IMPORTER", "detect", "parse_dtrace"]
