"""Stream JSON-lines application metrics into points.

Each line is one object with a time under `ts`, `time` or `timestamp` (any case), and either
- long form: `"name"` and `"value"` (a number or numeric text), optional `"labels": {...}` and
  `"unit"`; or
- wide form: every other key with a number is a series of that name at that time; keys with text
  are labels of all of them, as are the entries of `"labels"`.
Lines that break these rules are dropped with a warning naming them. What a key means, and the unit
a name implies, is worked out once per distinct key, and label sets once per distinct set.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from stallscope.ingest.appmetrics.common import TIME_KEYS, Labels, drop, empty, label_text, number
from stallscope.ingest.appmetrics.jsonlines import json_lines
from stallscope.ingest.appmetrics.lines import LineReader
from stallscope.ingest.appmetrics.timestamps import BadTime, TimeReader
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, ParseReport

_MAX_CACHED = 100_000
_TIME, _SKIP = "time", "skip"
"""Roles of keys that are not series: the time, and `labels`/`unit`."""


def parse_jsonl(stream: BinaryIO, report: ParseReport) -> Iterator[MetricPoint]:
    """Yield the points of JSON-lines metrics read from `stream`, filling `report` as it goes."""
    reader = _Reader(report)
    seen_any = False
    for line, obj in json_lines(LineReader(stream), report):
        seen_any = True
        if type(obj) is not dict:
            drop(report, line, "not a JSON object")
            continue
        yield from reader.points(obj, line)
    if not seen_any and report.dropped_lines == 0:
        raise empty()


class _Reader:
    def __init__(self, report: ParseReport) -> None:
        self._report = report
        self._times = TimeReader(report)
        self._roles: dict[str, str] = {}
        self._units: dict[str, str | None] = {}
        self._labels: dict[object, Labels] = {}

    def points(self, obj: dict[str, Any], line: int) -> list[MetricPoint]:
        try:
            time_ns = self._time(obj, line)
        except BadTime as exc:
            drop(self._report, line, str(exc))
            return []
        if "name" in obj and "value" in obj:
            return self._long(obj, line, time_ns)
        return self._wide(obj, line, time_ns)

    def _role(self, key: str) -> str:
        role = self._roles.get(key)
        if role is None:
            lowered = key.lower()
            role = _TIME if lowered in TIME_KEYS else _SKIP if key in ("labels", "unit") else "series"
            if len(self._roles) < _MAX_CACHED:
                self._roles[key] = role
        return role

    def _unit(self, name: str) -> str | None:
        if name in self._units:
            return self._units[name]
        unit = unit_from_name(name)
        if len(self._units) < _MAX_CACHED:
            self._units[name] = unit
        return unit

    def _time(self, obj: dict[str, Any], line: int) -> int:
        for key in TIME_KEYS:
            if key in obj:
                value = obj[key]
                break
        else:
            value = next((obj[k] for k in obj if self._role(k) == _TIME), None)
            if value is None:
                raise BadTime("no time: name it ts, time or timestamp")
        kind = type(value)
        if kind is str:
            return self._times.text(value, line)
        if kind is int or kind is float:
            return self._times.number(value, line)
        raise BadTime(f"the time {value!r} is neither a number nor text")

    def _label_set(self, raw: object, line: int) -> Labels | None:
        if raw is None:
            return ()
        if type(raw) is not dict:
            drop(self._report, line, '"labels" is not an object')
            return None
        try:
            key: object = tuple(raw.items())
            found = self._labels.get(key)
        except TypeError:  # a value that cannot be hashed (a list): not cached
            return tuple(sorted((str(k), label_text(v)) for k, v in raw.items()))
        if found is None:
            found = tuple(sorted((str(k), label_text(v)) for k, v in raw.items()))
            if len(self._labels) < _MAX_CACHED:
                self._labels[key] = found
        return found

    def _long(self, obj: dict[str, Any], line: int, time_ns: int) -> list[MetricPoint]:
        name = obj["name"]
        if type(name) is not str or not name:
            drop(self._report, line, f"the name {name!r} is not a non-empty string")
            return []
        try:
            value = number(obj["value"])
        except ValueError:
            drop(self._report, line, f"value {obj['value']!r} is not a number")
            return []
        labels = self._label_set(obj.get("labels"), line)
        if labels is None:
            return []
        unit = obj.get("unit")
        return [
            MetricPoint(line, name, time_ns, value, labels, unit if type(unit) is str else self._unit(name))
        ]

    def _wide(self, obj: dict[str, Any], line: int, time_ns: int) -> list[MetricPoint]:
        labels = self._label_set(obj.get("labels"), line)
        if labels is None:
            return []
        series: list[tuple[str, float]] = []
        text: list[tuple[str, str]] = []
        for key, value in obj.items():
            kind = type(value)
            if kind is int or kind is float:
                if self._role(key) == "series":
                    series.append((key, value))
            elif kind is str and self._role(key) == "series":
                text.append((key, value))
        if not series:
            drop(self._report, line, "no numeric fields (and no name and value)")
            return []
        if text:
            labels = self._label_set(dict(labels + tuple(text)), line) or ()
        return [
            MetricPoint(line, key, time_ns, float(value), labels, self._unit(key)) for key, value in series
        ]
