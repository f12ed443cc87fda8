"""The postmortem as data: every text already redacted, every link already absolute.

The Markdown and HTML writers only lay this out, so both say the same thing, and redaction has
one place to happen (where this is built) instead of one per output format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Postmortem:
    """What `build_postmortem` returns: the report in two formats and the images both refer to."""

    markdown: str
    html: str
    images: dict[str, bytes]
    """By file name (`finding-3-flame.svg`); the Markdown links them as `images/<name>`."""


@dataclass(frozen=True, slots=True)
class CaptureLine:
    id: int
    filename: str
    host: str
    start: datetime | None
    end: datetime | None
    samples: int


@dataclass(frozen=True, slots=True)
class StatusStep:
    at: datetime
    status: str
    previous: str | None
    who: str | None
    """Who set it, from the audit log; None when the log does not say (set before it existed)."""


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    at: datetime
    kind: str
    """`start`, `status`, `annotation`, `finding`, `capture`."""
    text: str


@dataclass(frozen=True, slots=True)
class EvidenceLine:
    label: str
    text: str
    link: str | None


@dataclass(frozen=True, slots=True)
class Image:
    name: str
    caption: str
    svg: bytes


@dataclass(slots=True)
class FindingSection:
    number: int
    title: str
    severity: str
    confidence: float
    summary: str
    hosts: list[str]
    evidence: list[EvidenceLine]
    baseline: str | None
    next_checks: list[str]
    remediation: str
    note: str
    judged: str
    """When and by whom it was confirmed, as a phrase ("" when unknown)."""
    link: str | None
    """The view that shows the cause best."""
    images: list[Image] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class OtherFinding:
    title: str
    severity: str
    summary: str
    verdict: str | None
    """`dismissed`, or None: not judged."""
    note: str


@dataclass(slots=True)
class Report:
    incident_id: int
    title: str
    severity: str
    status: str
    summary: str
    started_at: datetime
    created_at: datetime
    hosts: list[str]
    captures: list[CaptureLine]
    time_range: tuple[datetime, datetime] | None
    status_history: list[StatusStep]
    root_cause: str
    remediation: str
    timeline: list[TimelineEntry]
    confirmed: list[FindingSection]
    others: list[OtherFinding]
    incident_link: str
    generated_at: datetime
