"""The general way from a decoded JSON-lines object to points: every rule, every reason to drop.

Each object has a time under `ts`, `time` or `timestamp` (any case), and either
- long form: `"name"` and `"value"` (a number or numeric text), optional `"labels": {...}` and
  `"unit"`; or
- wide form: every other key with a number is a series of that name at that time; keys with text
  are labels of all of them, as are the entries of `"labels"`.
What a key means, and the unit a name implies, is worked out once per distinct key, and label sets
once per distinct set; the fast path (`template`) shares these caches.
"""

from __future__ import annotations

from typing import Any

from stallscope.ingest.appmetrics.common import TIME_KEYS, Labels, drop, label_text, number
from stallscope.ingest.appmetrics.timestamps import BadTime, TimeReader
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, ParseReport

MAX_CACHED = 100_000
TIME, SKIP, SERIES = "time", "skip", "series"
"""Roles of keys: the time, `labels`/`unit` and the empty key (it names nothing, as an empty CSV header
cell does not), and everything else."""


class ObjectReader:
    """Decoded objects to points, working out what repeats (key roles, units, label sets) once."""

    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self.times = TimeReader(report)
        self._roles: dict[str, str] = {}
        self._units: dict[str, str | None] = {}
        self._labels: dict[object, Labels] = {}

    def points(self, obj: dict[str, Any], line: int) -> list[MetricPoint]:
        """The points of one object; none, and a warning naming the line, if it breaks a rule."""
        try:
            time_ns = self.time(obj, line)
        except BadTime as exc:
            drop(self.report, line, str(exc))
            return []
        if "name" in obj and "value" in obj:
            return self._long(obj, line, time_ns)
        return self._wide(obj, line, time_ns)

    def role(self, key: str) -> str:
        """What a key is: the time, one to skip, or a series (or a text label, in wide form)."""
        role = self._roles.get(key)
        if role is None:
            lowered = key.lower()
            role = TIME if lowered in TIME_KEYS else SKIP if key in ("labels", "unit", "") else SERIES
            if len(self._roles) < MAX_CACHED:
                self._roles[key] = role
        return role

    def unit(self, name: str) -> str | None:
        """The unit a series name implies."""
        if name in self._units:
            return self._units[name]
        unit = unit_from_name(name)
        if len(self._units) < MAX_CACHED:
            self._units[name] = unit
        return unit

    def time(self, obj: dict[str, Any], line: int) -> int:
        """The object's time in epoch nanoseconds; BadTime if it has none this file can use."""
        for key in TIME_KEYS:
            if key in obj:
                value = obj[key]
                break
        else:
            value = next((obj[k] for k in obj if self.role(k) == TIME), None)
            if value is None:
                raise BadTime("no time: name it ts, time or timestamp")
        kind = type(value)
        if kind is str:
            return self.times.text(value, line)
        if kind is int or kind is float:
            return self.times.number(value, line)
        raise BadTime(f"the time {value!r} is neither a number nor text")

    def label_set(self, raw: object, line: int) -> Labels | None:
        """A `labels` value as sorted pairs; None, and the line dropped, when it is not an object."""
        if raw is None:
            return ()
        if type(raw) is not dict:
            drop(self.report, line, '"labels" is not an object')
            return None
        try:
            key: object = tuple(raw.items())
            found = self._labels.get(key)
        except TypeError:  # a value that cannot be hashed (a list): not cached
            return tuple(sorted((str(k), label_text(v)) for k, v in raw.items()))
        if found is None:
            found = tuple(sorted((str(k), label_text(v)) for k, v in raw.items()))
            if len(self._labels) < MAX_CACHED:
                self._labels[key] = found
        return found

    def _long(self, obj: dict[str, Any], line: int, time_ns: int) -> list[MetricPoint]:
        name = obj["name"]
        if type(name) is not str or not name:
            drop(self.report, line, f"the name {name!r} is not a non-empty string")
            return []
        try:
            value = number(obj["value"])
        except ValueError:
            drop(self.report, line, f"value {obj['value']!r} is not a number")
            return []
        labels = self.label_set(obj.get("labels"), line)
        if labels is None:
            return []
        unit = obj.get("unit")
        return [
            MetricPoint(line, name, time_ns, value, labels, unit if type(unit) is str else self.unit(name))
        ]

    def _wide(self, obj: dict[str, Any], line: int, time_ns: int) -> list[MetricPoint]:
        labels = self.label_set(obj.get("labels"), line)
        if labels is None:
            return []
        series: list[tuple[str, float]] = []
        text: list[tuple[str, str]] = []
        for key, value in obj.items():
            kind = type(value)
            if kind is int or kind is float:
                if self.role(key) == SERIES:
                    series.append((key, value))
            elif kind is str and self.role(key) == SERIES:
                text.append((key, value))
        if not series:
            drop(self.report, line, "no numeric fields (and no name and value)")
            return []
        if text:
            labels = self.label_set(dict(labels + tuple(text)), line) or ()
        return [
            MetricPoint(line, key, time_ns, number(value), labels, self.unit(key)) for key, value in series
        ]
