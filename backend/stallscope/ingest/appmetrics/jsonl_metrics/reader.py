"""The general way from a decoded JSON-lines object to points: every rule, every reason to drop.

Each object has a time under the key the first object's keys and values set by the rules of
`time_columns` (`ts`, `@timestamp`, `epoch_us`, a key holding ISO 8601 text…, or the key given at
upload), and either
- long form: `"name"` and `"value"` (a number or numeric text), optional `"labels": {...}` and
  `"unit"`; or
- wide form: every other key with a number is a series of that name at that time; keys with text
  are labels of all of them, as are the entries of `"labels"`.
What a key means, and the unit a name implies, is worked out once per distinct key, and label sets
once per distinct set; the fast path (`template`) shares these caches.
"""

from __future__ import annotations

from typing import Any

from stallscope.ingest.appmetrics.common import Labels, drop, label_text, number
from stallscope.ingest.appmetrics.time_columns import TIME_NAMES, find_time_column, named_unit
from stallscope.ingest.appmetrics.timestamps import BadTime, TimeReader
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, ParseError, ParseReport

MAX_CACHED = 100_000
TIME, SKIP, SERIES = "time", "skip", "series"
"""Roles of keys: the time (the file's time key, and any key named only `ts`, `time`, `date`…),
`labels`/`unit` and the empty key (it names nothing, as an empty CSV header cell does not), and
everything else."""
_NOT_TIMES = frozenset({"labels", "unit", "name", "value", ""})
NO_TIME = "no time: no key is named like one (ts, time, timestamp, @timestamp, epoch…) or holds one"


class ObjectReader:
    """Decoded objects to points, working out what repeats (key roles, units, label sets) once."""

    def __init__(self, report: ParseReport, time_key: str | None = None) -> None:
        self.report = report
        self.times = TimeReader(report, named_unit(time_key) if time_key is not None else None)
        self._given = time_key is not None
        self.time_key = time_key
        """The file's time key: given at upload, or set by the first object with one."""
        if time_key is not None:
            report.warn(0, f"time key: {time_key!r} (as given at upload)")
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

    def time_key_for(self, obj: dict[str, Any]) -> str | None:
        """The key of `obj` that holds its time; the first object that has one sets the file's."""
        key = self.time_key
        if key is None:
            key = self._choose(obj)
            if key is None:
                return None
        if key in obj:
            return key
        if self._given:  # the same name in another case, or none
            return next((k for k in obj if k.lower() == key.lower()), key)
        return next((k for k in obj if k.lower() in TIME_NAMES), None)  # a line laid out otherwise

    def _choose(self, obj: dict[str, Any]) -> str | None:
        keys = [key for key in obj if key not in _NOT_TIMES]
        try:
            found = find_time_column(keys, [[obj[key]] for key in keys])
        except ParseError:
            return None
        self.time_key = found.name
        self.times = TimeReader(self.report, named_unit(found.name))  # nothing was read with the old one
        self._roles.clear()
        note = found.note()
        if note is not None:
            self.report.warn(0, note.replace("column", "key"))
        return found.name

    def role(self, key: str) -> str:
        """What a key is: the time, one to skip, or a series (or a text label, in wide form)."""
        role = self._roles.get(key)
        if role is None:
            lowered, chosen = key.lower(), self.time_key
            time = lowered in TIME_NAMES or (chosen is not None and lowered == chosen.lower())
            role = TIME if time else SKIP if key in ("labels", "unit", "") else SERIES
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
        key = self.time_key_for(obj)
        if key is None or key not in obj:
            raise BadTime(NO_TIME if key is None else f"no time: the line has no {key!r}")
        value = obj[key]
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
