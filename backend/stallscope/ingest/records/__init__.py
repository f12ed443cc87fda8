"""A capture's stored records as another Stallscope exported them (`export.records`): the vendor's
side of an escalation bundle. Wall-clock times throughout, so nothing is aligned again."""

from __future__ import annotations

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.records.detect import detect
from stallscope.ingest.records.parser import parse_records
from stallscope.ingest.registry import Importer

IMPORTER = Importer("stallscope-records", detect, parse_records, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_records"]
