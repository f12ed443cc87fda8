"""Importer for already-collapsed stacks (`comm;caller;callee count`): samples with no times."""

from stallscope.ingest.collapsed.detect import detect
from stallscope.ingest.collapsed.parser import parse_collapsed
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer

IMPORTER = Importer("collapsed", detect, parse_collapsed, CaptureClock.NONE)

__all__ = ["IMPORTER", "detect", "parse_collapsed"]
