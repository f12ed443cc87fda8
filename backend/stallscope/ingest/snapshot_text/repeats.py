"""Sections printed again unchanged are read once; later takes make the same calls on their take.

A script run several times into one file prints the same mounts, environments, command lines and
read errors in every take. The first time a section's name and text come, it is read into a
`Recorder`, which notes each call the readers make on the take (`put`, `put_in`, `put_many`,
`error`, `keep_text`, `warn`, `name_host`); those calls are then made on the real take, and on
every later take where the same section comes again with the same text. A reader that looks at
what the take already holds (`host`, `section()`) or sets its time fails on the recorder, which
has no such attribute: that section is then always read in full, as is one longer than
`MAX_REPEATED_CHARS`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

from stallscope.ingest.snapshot_text.sections import read_section
from stallscope.ingest.snapshot_text.take import Take

MAX_REPEATED_CHARS = 32 << 10
"""Longer sections (a whole `sysctl -a` or kernel config) are read each time: with `MAX_SECTIONS`,
what the cache holds stays within a few MiB."""
MAX_SECTIONS = 256
"""Distinct sections remembered, the least recently read forgotten first."""

Call = tuple[str, tuple[Any, ...], Any]
"""A method of `Take`, its arguments but the last, and the last: the value put, when it puts one."""
Copy = Callable[[Any], Any]
Replay = tuple[str, tuple[Any, ...], Any, Copy | None]
"""A call, and how to copy its last argument (None: it is not a list or dict)."""


class Recorder:
    """Stands in for a `Take` while a section is read, and notes the calls made on it."""

    __slots__ = ("calls",)

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def put(self, section: str, key: str, value: Any) -> None:
        self.calls.append(("put", (section, key), value))

    def put_many(self, section: str, values: dict[str, Any]) -> None:
        self.calls.append(("put_many", (section,), values))

    def put_in(self, section: str, key: str, inner: str, value: Any) -> None:
        self.calls.append(("put_in", (section, key, inner), value))

    def error(self, section: str, key: str, message: str) -> None:
        self.calls.append(("error", (section, key), message))

    def keep_text(self, name: str, text: str) -> None:
        self.calls.append(("keep_text", (name,), text))

    def warn(self, message: str) -> None:
        self.calls.append(("warn", (), message))

    def name_host(self, host: str) -> None:
        self.calls.append(("name_host", (), host))


def read_section_once(take: Take, name: str | None, body: str) -> None:
    """`sections.read_section`, at the cost of a look-up when the same section came before."""
    calls = _calls(name, body) if len(body) <= MAX_REPEATED_CHARS else None
    if calls is None:
        read_section(take, name, body)
        return
    for method, args, last, copy in calls:
        getattr(take, method)(*args, last if copy is None else copy(last))


@functools.lru_cache(maxsize=MAX_SECTIONS)
def _calls(name: str | None, body: str) -> tuple[Replay, ...] | None:
    """The calls reading this section makes on a take; None when it needs the take itself."""
    recorder = Recorder()
    try:
        read_section(cast(Take, recorder), name, body)
    except Exception:  # the reader used the take's state, or failed: read on the real take, as it was
        return None
    return tuple((method, args, last, _copy_for(last)) for method, args, last in recorder.calls)


def _copy_for(value: Any) -> Copy | None:
    """How to copy a value a call puts, so that each take's document owns its lists and dicts;
    chosen once, by its shape (most are strings, flat lists, or a table of flat dicts)."""
    if not isinstance(value, dict | list):
        return None
    items = list(value.values()) if isinstance(value, dict) else value
    if not _any_container(set(map(type, items))):
        return _shallow
    inner: set[type] = set()
    for item in items:
        if isinstance(item, dict):
            inner.update(map(type, item.values()))
        elif isinstance(item, list):
            inner.update(map(type, item))
    return _deep if _any_container(inner) else _two_levels


def _any_container(kinds: set[type]) -> bool:
    return any(issubclass(kind, dict | list) for kind in kinds)


def _shallow(value: Any) -> Any:
    return value.copy()


def _two_levels(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: item.copy() if isinstance(item, dict | list) else item for key, item in value.items()}
    return [item.copy() if isinstance(item, dict | list) else item for item in value]


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _deep(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_deep(item) for item in value]
    return value
