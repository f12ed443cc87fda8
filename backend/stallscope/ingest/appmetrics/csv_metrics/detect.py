"""Recognise a metrics CSV: a header row of names, split by `,`, `;` or tab.

A header with a time column is enough. A header of names without one, followed by a row of as many
fields, is accepted too, so that the parser can say which column is missing rather than the upload
being called unrecognised. CSV is the most permissive format, so the registry tries it last.
"""

from __future__ import annotations

import csv

from stallscope.ingest.appmetrics.common import TIME_KEYS
from stallscope.ingest.appmetrics.csv_metrics.header import sniff_delimiter

_SNIFF_LINES = 50


def detect(head: bytes) -> bool:
    lines = [
        line
        for line in head.decode("utf-8", "replace").split("\n", _SNIFF_LINES)[:_SNIFF_LINES]
        if line.strip() and not line.startswith("#")
    ]
    if not lines or lines[0].lstrip("\ufeff \t").startswith(("{", "[")):
        return False
    delimiter = sniff_delimiter(lines[0])
    if delimiter not in lines[0]:
        return False
    names = [cell.strip().lstrip("\ufeff").lower() for cell in _cells(lines[0], delimiter)]
    if len(names) < 2:
        return False
    if any(name in TIME_KEYS for name in names):
        return True
    return (
        len(lines) > 1
        and all(name and not _numeric(name) for name in names)
        and (len(_cells(lines[1], delimiter)) == len(names))
    )


def _cells(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line.rstrip("\r")], delimiter=delimiter), [])
    except csv.Error:
        return []


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
