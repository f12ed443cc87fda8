"""Importer for systemtap page-fault timings (`start_us:end_us:tid:pid:duration_us:retval` + stacks)."""

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer
from stallscope.ingest.stap.detect import detect
from stallscope.ingest.stap.parser import parse_stap_faults

IMPORTER = Importer("stap-faults", detect, parse_stap_faults, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_stap_faults"]
