"""Configuration diff between two snapshots: which settings B changed, added or lost against A.

A and B are snapshot documents in the collector's layout (its JSON, or a text snapshot mapped into
it): two hosts, or the start and end takes of one file. Both are flattened the same way
(`analysis.config_keys`), so values compare after normalisation (THP `always [madvise] never` is
`madvise` on either side) and processes by name rather than pid.

What one side lacks is told apart by what it is. A member of a set the other side also read (an
enabled event of `set_event`, a BPF program, a variable of an environment, a mount point, a kernel
config option) is added (B has it) or removed (A had it). A plain file one side never read (a text
snapshot without `sysctl -a`, a collector document without mounts) says nothing either way: those
are listed per section under `only_in_a`/`only_in_b`, not as differences. Each list is in the order
of `config_keys.SECTION_ORDER`, so the settings behind stalls come first. Pure: no database, no HTTP.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from stallscope.analysis.config_hints import hint_for
from stallscope.analysis.config_keys import Flat, Setting, flatten, section_rank

Status = Literal["changed", "added", "removed", "unchanged"]


@dataclass(frozen=True, slots=True)
class KeyChange:
    """One setting on both sides; `a` or `b` is None where that side lacks it or could not read it."""

    section: str
    key: str
    status: Status
    a: str | None
    b: str | None
    a_note: str | None = None
    b_note: str | None = None
    hint: str | None = None
    """Why this setting matters for latency, for the settings the stories name."""


@dataclass(frozen=True, slots=True)
class OnlyRead:
    """Settings of one section that only one side read: the whole section, or some of its files."""

    section: str
    count: int
    keys: list[str]
    """The first `MAX_KEYS_LISTED` of them."""
    whole_section: bool


MAX_KEYS_LISTED = 200


@dataclass(slots=True)
class ConfigDiff:
    changed: list[KeyChange] = field(default_factory=list)
    added: list[KeyChange] = field(default_factory=list)
    removed: list[KeyChange] = field(default_factory=list)
    unchanged: list[KeyChange] = field(default_factory=list)
    only_in_a: list[OnlyRead] = field(default_factory=list)
    """Read on A only: no difference can be told."""
    only_in_b: list[OnlyRead] = field(default_factory=list)
    not_compared_a: dict[str, int] = field(default_factory=dict)
    not_compared_b: dict[str, int] = field(default_factory=dict)

    @property
    def differs(self) -> bool:
        return bool(self.changed or self.added or self.removed)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def diff_snapshots(a: Mapping[str, Any], b: Mapping[str, Any]) -> ConfigDiff:
    """B's settings against A's (snapshot documents)."""
    return diff_flat(flatten(a), flatten(b))


def diff_flat(a: Flat, b: Flat) -> ConfigDiff:
    result = ConfigDiff(not_compared_a=dict(a.not_compared), not_compared_b=dict(b.not_compared))
    only_a: dict[str, list[str]] = {}
    only_b: dict[str, list[str]] = {}
    keys = sorted(a.settings.keys() | b.settings.keys(), key=lambda k: (section_rank(k[0]), k[1]))
    for section, key in keys:
        in_a, in_b = a.settings.get((section, key)), b.settings.get((section, key))
        if in_a is not None and in_b is not None:
            change = _compare(in_a, in_b, section, key)
        elif in_a is not None and _read_container(b, in_a):
            change = _compare(in_a, None, section, key)
        elif in_b is not None and _read_container(a, in_b):
            change = _compare(None, in_b, section, key)
        else:
            (only_a if in_a is not None else only_b).setdefault(section, []).append(key)
            continue
        getattr(result, change.status).append(change)
    result.only_in_a = _only(only_a, b)
    result.only_in_b = _only(only_b, a)
    return result


def _read_container(other: Flat, setting: Setting) -> bool:
    """Whether the other side read the set this member belongs to, so its absence there is real."""
    return setting.container is not None and (setting.section, setting.container) in other.containers


def _only(keys: dict[str, list[str]], other: Flat) -> list[OnlyRead]:
    return [
        OnlyRead(section, len(names), names[:MAX_KEYS_LISTED], section not in other.sections)
        for section, names in sorted(keys.items(), key=lambda item: section_rank(item[0]))
    ]


def _compare(a: Setting | None, b: Setting | None, section: str, key: str) -> KeyChange:
    status: Status
    if a is None:
        status = "added"
    elif b is None:
        status = "removed"
    else:
        status = "unchanged" if a.value == b.value else "changed"
    return KeyChange(
        section,
        key,
        status,
        a.value if a else None,
        b.value if b else None,
        a.note if a else None,
        b.note if b else None,
        hint_for(section, key),
    )
