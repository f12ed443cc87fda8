"""Importer for application metrics as JSON lines, one object per line, long or wide form."""

from stallscope.ingest.appmetrics.jsonl_metrics.detect import detect
from stallscope.ingest.appmetrics.jsonl_metrics.parser import parse_jsonl
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("metrics-jsonl", detect, parse_jsonl, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_jsonl"]
