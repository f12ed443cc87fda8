"""The fast path through JSON lines: objects that repeat the layout of the one before them.

Metrics writers print every line with the same keys in the same order, spaced the same way, and
only the values change. A template is learnt from one line: a regular expression that matches
exactly the lines with those keys, in that order and with that spacing, whose values are plain JSON
of the same kinds (numbers; strings without escapes; flat objects, decoded once per distinct text;
`true`/`false`/`null`). A line it matches is valid JSON that decodes to an object with those keys,
so what the rules (`reader`) say about it is worked out once, from the keys, and each line only
converts its values. A line the template cannot vouch for (no match, a labels object that is not
flat, an empty name, a value in a string that is not a number) is read the general way, which also
says what is wrong with it. Lines must be ASCII (the caller checks): other text may not be UTF-8,
which the general way refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any

from stallscope.ingest.appmetrics.common import Labels, drop
from stallscope.ingest.appmetrics.jsonl_metrics.reader import MAX_CACHED, SERIES, ObjectReader
from stallscope.ingest.appmetrics.row_points import row_record_maker
from stallscope.ingest.appmetrics.timestamps import BadTime
from stallscope.ingest.json_text import loads
from stallscope.ingest.model import MetricPoint, MetricRow, RowSeries

ReadLine = Callable[[bytes, int], Iterable[MetricPoint | MetricRow]]
"""(an ASCII line, its number) -> its points, or its row."""

_SPACE = rb"[ \t\r]*"
"""JSON's white space (a line holds no newline); `\\s` would also take form feeds, which JSON refuses."""
_SPACINGS = (
    (b"\\{", b": ", b", ", b"\\}\r?"),
    (b"\\{", b":", b",", b"\\}\r?"),
    (_SPACE + b"\\{" + _SPACE, _SPACE + b":" + _SPACE, _SPACE + b"," + _SPACE, _SPACE + b"\\}" + _SPACE),
)
"""(opening, colon, comma, closing): `json.dumps`'s spacing, the compact one, then any (slower to match)."""
_NUMBER = rb"(-?(?:0|[1-9][0-9]{0,299})(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)"
"""A JSON number; integers of more than 300 digits are left to the general way (`int` refuses 4300)."""
_STRING = rb'"([^"\\\x00-\x1f]*)"'
_OBJECT = rb"(\{[^{}\[\]]*\})"
_LITERALS = {True: b"true", False: b"false", None: b"null"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')
_INTEGER = re.compile(rb"-?[0-9]+")
NUMBER, STRING, OBJECT, LITERAL = "number", "string", "object", "literal"
"""Kinds of value a template holds a place for."""


def learn(raw: bytes, obj: dict[str, Any], objects: ObjectReader, fallback: ReadLine) -> Template | None:
    """A template of lines laid out like `raw` (which decodes to `obj`), or None if they have no fast path.

    `fallback` reads a line the general way; the template hands it every line it cannot vouch for.
    """
    names: list[bytes] = []
    values: list[bytes] = []
    kinds: list[str] = []
    for key, value in obj.items():
        if _NEEDS_ESCAPE.search(key):
            return None
        kind = type(value)
        if kind is int or kind is float:
            pattern, kinds_of = _NUMBER, NUMBER
        elif kind is str:
            pattern, kinds_of = _STRING, STRING
        elif kind is dict and all(type(v) in (str, int, float, bool) or v is None for v in value.values()):
            pattern, kinds_of = _OBJECT, OBJECT
        elif kind is bool or value is None:
            pattern, kinds_of = b"(" + _LITERALS[value] + b")", LITERAL
        else:
            return None
        names.append(b'"' + re.escape(key.encode()) + b'"')
        values.append(pattern)
        kinds.append(kinds_of)
    if not values:
        return None
    for opening, colon, comma, closing in _SPACINGS:
        body = comma.join(name + colon + value for name, value in zip(names, values, strict=True))
        compiled = re.compile(opening + body + closing)
        if compiled.fullmatch(raw) is not None:
            return _Layout(compiled, list(obj), kinds).template(objects, fallback, objects.time_key_for(obj))
    return None


class _Layout:
    """Where the rules find what they need among a template's values."""

    def __init__(self, pattern: re.Pattern[bytes], keys: list[str], kinds: list[str]) -> None:
        self.pattern = pattern
        self.keys = keys
        self.kinds = kinds

    def template(self, objects: ObjectReader, fallback: ReadLine, time_key: str | None) -> Template | None:
        keys, kinds = self.keys, self.kinds
        time_at = keys.index(time_key) if time_key in keys else None  # the file's time key (`reader`)
        if time_at is None or kinds[time_at] not in (NUMBER, STRING):
            return None  # no usable time: every line is dropped, the general way says why
        labels_at = keys.index("labels") if "labels" in keys else None
        if labels_at is not None and kinds[labels_at] not in (OBJECT, LITERAL):
            return None
        template = Template(self.pattern, fallback)
        times = _Times(objects, kinds[time_at] == STRING)
        labels = _Labels(objects, labels_at, kinds[labels_at] if labels_at is not None else None)
        if "name" in keys and "value" in keys:
            name_at, value_at = keys.index("name"), keys.index("value")
            if kinds[name_at] != STRING or kinds[value_at] not in (NUMBER, STRING):
                return None
            unit_at = keys.index("unit") if "unit" in keys and kinds[keys.index("unit")] == STRING else None
            value_is_number = kinds[value_at] == NUMBER
            template.read = _long_reader(
                template, time_at, times, labels, name_at, value_at, value_is_number, unit_at, objects
            )
            return template
        series = [i for i, key in enumerate(keys) if kinds[i] == NUMBER and objects.role(key) == SERIES]
        if not series:
            return None
        text = [i for i, key in enumerate(keys) if kinds[i] == STRING and objects.role(key) == SERIES]
        template.read = _wide_reader(template, time_at, times, labels, series, text, keys, objects)
        return template


class Template:
    """A layout learnt from one line: `read` gives any line's points, the fast way when it matches.

    `misses` counts the lines that did not match, so that the caller can learn again.
    """

    def __init__(self, pattern: re.Pattern[bytes], fallback: ReadLine) -> None:
        self.match = pattern.fullmatch
        self.misses = 0
        self._fallback = fallback
        self.read: ReadLine = self.miss

    def miss(self, raw: bytes, line: int) -> Iterable[MetricPoint | MetricRow]:
        """A line the template does not vouch for, read the general way (a blank one has no points)."""
        if not raw.strip():
            return ()
        self.misses += 1
        return self._fallback(raw, line)


class _Times:
    """A template's time value to epoch nanoseconds. Integers in the file's unit (`low` <= t < `high`)
    are scaled in the reader itself; `other` reads every other kind."""

    def __init__(self, objects: ObjectReader, text: bool) -> None:
        self._reader = objects.times
        self._text = text
        self.low, self.high, self.scale = 1.0, 0.0, 0  # no unit yet: nothing is in range

    def other(self, raw: bytes, line: int) -> int:
        """Epoch nanoseconds; BadTime (the line is dropped) or ValueError (go the general way)."""
        reader = self._reader
        if self._text:
            return reader.text(raw.decode(), line)
        time_ns = reader.number(int(raw) if _INTEGER.fullmatch(raw) else float(raw), line)
        if reader.unit is not None:
            self.low, self.high, self.scale = reader.low, reader.high, reader.scale_ns
        return time_ns


class _Labels:
    """A template's `labels` value to its label set, each distinct text decoded once."""

    def __init__(self, objects: ObjectReader, at: int | None, kind: str | None) -> None:
        self._objects = objects
        self.at = at if kind == OBJECT else None
        self.null_at = at if kind == LITERAL else None
        self.sets: dict[bytes, Labels | None] = {}

    def of(self, values: tuple[bytes, ...], line: int) -> Labels | None:
        """The line's label set (its `labels` value's, or none); None when the general way must tell."""
        if self.at is not None:
            text = values[self.at]
            found = self.sets.get(text, ())
            return found if found != () or text in self.sets else self._decode(text, line)
        if self.null_at is not None and values[self.null_at] != b"null":
            return None  # `"labels": true` is refused the general way
        return ()

    def _decode(self, raw: bytes, line: int) -> Labels | None:
        try:
            decoded = loads(raw)
        except ValueError:
            decoded = None
        found = self._objects.label_set(decoded, line) if type(decoded) is dict else None
        if len(self.sets) >= MAX_CACHED:
            self.sets.clear()
        self.sets[raw] = found
        return found


def _long_reader(
    template: Template,
    time_at: int,
    times: _Times,
    labels: _Labels,
    name_at: int,
    value_at: int,
    value_is_number: bool,
    unit_at: int | None,
    objects: ObjectReader,
) -> ReadLine:
    match, miss, report, labels_of = template.match, template.miss, objects.report, labels.of
    names: dict[bytes, tuple[str, str | None]] = {}
    units: dict[bytes, str] = {}
    last_stamp, last_ns = b"", 0
    low, high, scale = times.low, times.high, times.scale  # `times.other` moves them, once

    def read(raw: bytes, line: int) -> Iterable[MetricPoint | MetricRow]:
        nonlocal last_stamp, last_ns, low, high, scale
        found = match(raw)
        if found is None:
            return miss(raw, line)
        values = found.groups()
        stamp = values[time_at]
        if stamp != last_stamp:  # lines in a row often share their time
            try:
                if stamp.isdigit() and low <= (number := int(stamp)) < high:
                    last_ns = number * scale
                else:
                    last_ns = times.other(stamp, line)
                    low, high, scale = times.low, times.high, times.scale
            except BadTime as exc:
                drop(report, line, str(exc))
                return ()
            except ValueError:
                return miss(raw, line)
            last_stamp = stamp
        label_set = labels_of(values, line)
        if label_set is None:
            return miss(raw, line)
        raw_name = values[name_at]
        named = names.get(raw_name)
        if named is None:
            if not raw_name:
                return miss(raw, line)
            name = raw_name.decode()
            named = (name, objects.unit(name))
            if len(names) < MAX_CACHED:
                names[raw_name] = named
        text = values[value_at]
        if value_is_number:
            value = float(text) if text != b"-0" else 0.0  # the general way reads -0 as the integer 0
        else:
            try:
                value = float(text)
            except ValueError:
                return miss(raw, line)
        if unit_at is None:
            unit = named[1]
        else:
            raw_unit = values[unit_at]
            unit = units.get(raw_unit)
            if unit is None:
                unit = raw_unit.decode()
                if len(units) < MAX_CACHED:
                    units[raw_unit] = unit
        return (MetricPoint(line, named[0], last_ns, value, label_set, unit),)

    return read


def _wide_reader(
    template: Template,
    time_at: int,
    times: _Times,
    labels: _Labels,
    series: list[int],
    text: list[int],
    keys: list[str],
    objects: ObjectReader,
) -> ReadLine:
    match, miss, report, labels_of = template.match, template.miss, objects.report, labels.of
    make = row_record_maker(series)
    names = tuple(keys[i] for i in series)
    units = tuple(objects.unit(name) for name in names)
    layouts: dict[Labels, RowSeries] = {}
    """The line's columns by its label set (every series of a line shares it)."""
    pick_text = _picker(text) if text else None
    text_keys = [keys[i] for i in text]
    with_text: dict[tuple[Labels, tuple[bytes, ...]], Labels] = {}
    has_labels = labels.at is not None or labels.null_at is not None
    last_stamp, last_ns = b"", 0
    low, high, scale = times.low, times.high, times.scale  # `times.other` moves them, once

    def read(raw: bytes, line: int) -> Iterable[MetricPoint | MetricRow]:
        nonlocal last_stamp, last_ns, low, high, scale
        found = match(raw)
        if found is None:
            return miss(raw, line)
        values = found.groups()
        stamp = values[time_at]
        if stamp != last_stamp:
            try:
                if stamp.isdigit() and low <= (number := int(stamp)) < high:
                    last_ns = number * scale
                else:
                    last_ns = times.other(stamp, line)
                    low, high, scale = times.low, times.high, times.scale
            except BadTime as exc:
                drop(report, line, str(exc))
                return ()
            except ValueError:
                return miss(raw, line)
            last_stamp = stamp
        label_set = labels_of(values, line) if has_labels else ()
        if label_set is None:
            return miss(raw, line)
        if pick_text is not None:  # text values are labels of every series on the line
            key = (label_set, pick_text(values))
            combined = with_text.get(key)
            if combined is None:
                pairs = label_set + tuple(zip(text_keys, [v.decode() for v in key[1]], strict=True))
                combined = objects.label_set(dict(pairs), line) or ()
                if len(with_text) >= MAX_CACHED:
                    with_text.clear()
                with_text[key] = combined
            label_set = combined
        if b"-0" in values:  # the general way reads the integer -0 as 0, and makes it 0.0
            values = tuple(
                b"0" if at in series and value == b"-0" else value for at, value in enumerate(values)
            )
        layout = layouts.get(label_set)
        if layout is None:
            layout = RowSeries(names, (label_set,) * len(names), units)
            if len(layouts) >= MAX_CACHED:
                layouts.clear()
            layouts[label_set] = layout
        return (make(line, last_ns, values, layout),)

    return read


def _picker(indexes: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A function from a match's groups to those at `indexes`, always as a tuple."""
    if len(indexes) == 1:
        index = indexes[0]
        return lambda groups: (groups[index],)
    return itemgetter(*indexes)
