"""Importer for Prometheus query results (`/api/v1/query_range` JSON), streamed rather than loaded."""

from stallscope.ingest.appmetrics.prometheus.detect import detect
from stallscope.ingest.appmetrics.prometheus.parser import parse_prometheus
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("prometheus-range", detect, parse_prometheus, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_prometheus"]
