"""Importer for application metrics in CSV: long form (`ts,name,value,labels…`) or wide (a column each)."""

from stallscope.ingest.appmetrics.csv_metrics.detect import detect
from stallscope.ingest.appmetrics.csv_metrics.parser import parse_csv
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("metrics-csv", detect, parse_csv, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_csv"]
