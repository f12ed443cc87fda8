"""Importer for the collector's /proc sampler output (`stallscope-proc`), JSON lines after a header."""

from stallscope.ingest.appmetrics.proc_sampler.detect import detect
from stallscope.ingest.appmetrics.proc_sampler.parser import parse_proc_sampler
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("stallscope-proc", detect, parse_proc_sampler, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_proc_sampler"]
