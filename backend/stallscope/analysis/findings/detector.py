"""What every detector is: an id, the records it reads, its thresholds, and a rule.

One module per detector under `detectors/`, its docstring saying what the pattern is and why it
hurts; the docs' detector table is generated from these attributes (`table.py`), so the thresholds
a reader sees are the ones the code applies.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

from stallscope.analysis.findings.digest import MetricSummary
from stallscope.analysis.findings.finding import Finding, Severity, ViewLink, view
from stallscope.analysis.findings.profile import Profile

NEEDS = ("cpu", "offcpu", "faults", "syscalls", "threads", "metrics", "snapshot")
"""What a detector can read: CPU samples, off-CPU scheduler intervals with stacks, page-fault samples
or events, traced syscalls, per-thread scheduler accounting, metric series, the system snapshot."""


@dataclass(frozen=True, slots=True)
class Threshold:
    name: str
    value: float
    unit: str
    """`share` (0 to 1), `ms`, `count`, `per_s`, `ratio`."""
    meaning: str

    def shown(self) -> str:
        if self.unit == "share":
            return f"{self.value * 100:g}%"
        if self.unit == "ratio":
            return f"{self.value:g}x"
        return f"{self.value:g} {self.unit}"


@dataclass(frozen=True, slots=True)
class Measure:
    """A detector's headline number, compared between the impacted side and the baseline."""

    value: float
    text: str


WALL_CLOCK_FLOOR_US = 946_684_800_000_000
"""2000-01-01 in µs: an instant before it is on a capture's own clock, written as seconds in URLs."""

TimeRangeNs = tuple[int, int]


def url_instant(ns: int) -> str:
    """An instant as the views' URLs write it: ISO 8601 UTC with µs, or capture-clock seconds."""
    us = ns // 1000
    if us < WALL_CLOCK_FLOOR_US:
        return f"{us / 1e6:.6f}s"
    moment = datetime.fromtimestamp(us // 1_000_000, UTC)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{us % 1_000_000:06d}Z"


class Links:
    """Views of one side (its incident, hosts and time range), with the view's own URL keys."""

    def __init__(
        self,
        incident_id: int | None,
        hosts: list[str],
        baseline_hosts: list[str] | None,
        time_range: TimeRangeNs | None = None,
        baseline_time_range: TimeRangeNs | None = None,
        snapshot_id: int | None = None,
        baseline_snapshot_id: int | None = None,
    ) -> None:
        self.incident_id = incident_id
        self.hosts = hosts
        self.baseline_hosts = baseline_hosts
        self.time_range = time_range
        """Set when findings are of a window: every view opens on it."""
        self.baseline_time_range = baseline_time_range
        self.snapshot_id = snapshot_id
        """The capture holding this side's system snapshot, and the baseline's."""
        self.baseline_snapshot_id = baseline_snapshot_id

    def _base(self) -> dict[str, str | int | None]:
        return {
            "incident": self.incident_id,
            "hosts": ",".join(self.hosts) or None,
            **_range("", self.time_range),
        }

    def flame(
        self,
        q: str | None = None,
        source: str | None = None,
        state: str | None = None,
        **extra: str | int | None,
    ) -> ViewLink:
        return view("/flame", **self._base(), q=q, source=source, state=state, **extra)

    def threads(self, **extra: str | int | None) -> ViewLink:
        return view("/threads", **self._base(), **extra)

    def timeline(self, **extra: str | int | None) -> ViewLink:
        return view("/timeline", **self._base(), **extra)

    def metrics(self, series: MetricSummary) -> ViewLink:
        """The metrics view drawing this series (`show` + `labels` pick it on the hosts shown)."""
        labels = ",".join(f"{k}={v}" for k, v in series.labels) or None
        return view("/metrics", **self._base(), q=series.name, show=series.name, labels=labels)

    def events(self, **extra: str | int | None) -> ViewLink:
        return view("/events", **self._base(), **extra)

    def diff(
        self, q: str | None = None, source: str | None = None, state: str | None = None
    ) -> ViewLink | None:
        """The baseline (A) against this side (B), when there is a baseline."""
        if not self.baseline_hosts:
            return None
        return view(
            "/diff",
            incident=self.incident_id,
            **{"a.hosts": ",".join(self.baseline_hosts), "b.hosts": ",".join(self.hosts)},
            **_range("a.", self.baseline_time_range),
            **_range("b.", self.time_range),
            q=q,
            source=source,
            state=state,
        )

    def config_diff(self) -> ViewLink | None:
        """The baseline's snapshot (A) against this side's (B), when both have one."""
        if self.incident_id is None or self.snapshot_id is None or self.baseline_snapshot_id is None:
            return None
        return view(
            f"/incidents/{self.incident_id}/config-diff", a=self.baseline_snapshot_id, b=self.snapshot_id
        )

    def snapshot(self) -> ViewLink | None:
        """This side's system snapshot, every section of it."""
        return None if self.snapshot_id is None else view(f"/captures/{self.snapshot_id}/snapshot")


def _range(prefix: str, time_range: TimeRangeNs | None) -> dict[str, str | int | None]:
    if time_range is None:
        return {}
    return {f"{prefix}from": url_instant(time_range[0]), f"{prefix}to": url_instant(time_range[1])}


class Detector(abc.ABC):
    """A rule. Subclasses set the class attributes and implement `detect` (and `measure`)."""

    id: ClassVar[str]
    title: ClassVar[str]
    needs: ClassVar[tuple[str, ...]]
    """Any of these is enough to run; without all of them the finding may be weaker."""
    thresholds: ClassVar[tuple[Threshold, ...]]
    confidence_rule: ClassVar[str]
    remediation: ClassVar[str]
    references: ClassVar[tuple[str, ...]] = ()
    next_checks: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        """The finding on `p`, or None when the pattern is not there."""

    def measure(self, p: Profile) -> Measure | None:
        """The headline number on any side (None: this side has no data for it)."""
        return None

    def finding(self, **fields: Any) -> Finding:
        """A finding of this detector: its id, title, next checks, remediation and references, plus
        what the rule found (severity, confidence, summary, evidence, view, threads, score)."""
        return Finding(
            id=self.id,
            title=self.title,
            next_checks=list(self.next_checks),
            remediation=self.remediation,
            references=list(self.references),
            **fields,
        )

    @classmethod
    def threshold(cls, name: str) -> float:
        for t in cls.thresholds:
            if t.name == name:
                return t.value
        raise KeyError(f"{cls.id} has no threshold {name!r}")

    @classmethod
    def doc(cls) -> str:
        """The first paragraph of the detector module's docstring: what it finds and why it hurts."""
        import sys

        text = sys.modules[cls.__module__].__doc__ or ""
        return " ".join(text.strip().split("\n\n", 1)[0].split())


def grade(value: float, warning: float, critical: float, info: float | None = None) -> Severity | None:
    """The severity a headline number earns against a detector's thresholds (None: below them all)."""
    if value >= critical:
        return Severity.CRITICAL
    if value >= warning:
        return Severity.WARNING
    if info is not None and value >= info:
        return Severity.INFO
    return None
