"""Importer for ftrace text: function_graph output (FUNCTION events) or event lines (TRACEPOINT)."""

from stallscope.ingest.ftrace.detect import detect
from stallscope.ingest.ftrace.parser import parse_ftrace
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("ftrace", detect, parse_ftrace, CaptureClock.MONOTONIC)

__all__ = ["IMPORTER", "detect", "parse_ftrace"]
