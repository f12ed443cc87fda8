"""Importer for `perf script` text: detection, streaming parse, and the frame-naming rules."""

from stallscope.ingest.perf_script.detect import PERF_DATA_MESSAGE, detect, looks_like_perf_data
from stallscope.ingest.perf_script.naming import NamingOptions
from stallscope.ingest.perf_script.parser import parse_perf_script

__all__ = ["PERF_DATA_MESSAGE", "NamingOptions", "detect", "looks_like_perf_data", "parse_perf_script"]
