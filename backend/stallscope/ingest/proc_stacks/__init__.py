"""Importer for periodic /proc/PID/task/TID/stack dumps: a sampled kernel stack per thread and dump."""

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.proc_stacks.detect import detect
from stallscope.ingest.proc_stacks.parser import parse_proc_stacks
from stallscope.ingest.registry import Importer

IMPORTER = Importer("proc-stacks", detect, parse_proc_stacks, CaptureClock.REALTIME)
"""Epoch times (`ts_us=`, ISO 8601, `date` between rounds): already wall-clock time."""

__all__ = ["IMPORTER", "detect", "parse_proc_stacks"]
