"""What a detector says: a finding with its quantified evidence and the views that show it.

Everything here is plain data with a stable JSON shape: the server stores it, the API returns it,
the CLI prints it, and the postmortem quotes it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode


class Severity(enum.IntEnum):
    """Ordered so that `max()` picks the most severe."""

    INFO = 1
    WARNING = 2
    CRITICAL = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.upper()]


@dataclass(frozen=True, slots=True)
class ViewLink:
    """A console view and its URL parameters (the incident and host selection are added by the engine).

    `path` is a front-end route (`/flame`, `/diff`, `/threads`, `/timeline`, `/metrics`, `/events`,
    `/incidents/{id}/config-diff`); the parameters use the views' own URL keys, so the link opens the
    exact view whose numbers the evidence quotes.
    """

    path: str
    params: tuple[tuple[str, str], ...] = ()

    def with_params(self, **extra: str | None) -> ViewLink:
        kept = [(k, v) for k, v in self.params if k not in extra]
        kept += [(k, v) for k, v in extra.items() if v is not None]
        return ViewLink(self.path, tuple(kept))

    def url(self) -> str:
        return f"{self.path}?{urlencode(self.params)}" if self.params else self.path


def view(path: str, **params: str | int | None) -> ViewLink:
    """A link with its parameters in a stable order (sorted), None values left out."""
    return ViewLink(path, tuple(sorted((k, str(v)) for k, v in params.items() if v is not None)))


@dataclass(frozen=True, slots=True)
class Evidence:
    """One quantified fact: `label: text`, the number behind it, and where to see it."""

    label: str
    text: str
    value: float | None = None
    unit: str | None = None
    """`share` (0 to 1), `ns`, `count`, `per_s`, `bytes`, `percent`."""
    baseline: float | None = None
    """The same number on the baseline side, when there is one."""
    view: ViewLink | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "text": self.text,
            "value": self.value,
            "unit": self.unit,
            "baseline": self.baseline,
            "view": self.view.url() if self.view else None,
        }


@dataclass(frozen=True, slots=True)
class ThreadRef:
    host: str
    pid: int | None
    tid: int | None
    comm: str

    def as_json(self) -> dict[str, Any]:
        return {"host": self.host, "pid": self.pid, "tid": self.tid, "comm": self.comm}


@dataclass(slots=True)
class Finding:
    """A named cause, how sure the rule is, and everything a reader needs to check it."""

    id: str
    title: str
    severity: Severity
    confidence: float
    summary: str
    evidence: list[Evidence]
    view: ViewLink
    """The one view that shows the cause best; evidence items may link to others."""
    hosts: list[str] = field(default_factory=list)
    threads: list[ThreadRef] = field(default_factory=list)
    time_range_ns: tuple[int, int] | None = None
    capture_ids: list[int] = field(default_factory=list)
    baseline: str | None = None
    """One sentence comparing with the baseline side (absent there, twelve times less), when there is one."""
    next_checks: list[str] = field(default_factory=list)
    remediation: str = ""
    references: list[str] = field(default_factory=list)
    score: float = 0.0
    """How much of the symptom this explains (0 to 1): ranks findings of the same severity."""

    def sort_key(self) -> tuple[int, float, float, str]:
        return (-int(self.severity), -self.confidence, -self.score, self.id)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "severity": self.severity.label,
            "confidence": round(self.confidence, 2),
            "summary": self.summary,
            "hosts": self.hosts,
            "threads": [t.as_json() for t in self.threads],
            "time_range_ns": list(self.time_range_ns) if self.time_range_ns else None,
            "capture_ids": self.capture_ids,
            "evidence": [e.as_json() for e in self.evidence],
            "baseline": self.baseline,
            "next_checks": self.next_checks,
            "remediation": self.remediation,
            "references": self.references,
            "score": round(self.score, 4),
            "view": self.view.url(),
        }


def finding_from_json(d: dict[str, Any]) -> Finding:
    """A stored finding back as the engine made it (the inverse of `Finding.as_json`)."""
    return Finding(
        id=d["id"],
        title=d["title"],
        severity=Severity.parse(d["severity"]),
        confidence=d["confidence"],
        summary=d["summary"],
        evidence=[
            Evidence(e["label"], e["text"], e["value"], e["unit"], e["baseline"], view_from_url(e["view"]))
            for e in d["evidence"]
        ],
        view=view_from_url(d["view"]) or ViewLink("/"),
        hosts=list(d["hosts"]),
        threads=[ThreadRef(t["host"], t["pid"], t["tid"], t["comm"]) for t in d["threads"]],
        time_range_ns=(d["time_range_ns"][0], d["time_range_ns"][1]) if d["time_range_ns"] else None,
        capture_ids=list(d["capture_ids"]),
        baseline=d["baseline"],
        next_checks=list(d["next_checks"]),
        remediation=d["remediation"],
        references=list(d["references"]),
        score=d["score"],
    )


def view_from_url(url: str | None) -> ViewLink | None:
    if url is None:
        return None
    path, _, query = url.partition("?")
    return ViewLink(path, tuple(parse_qsl(query, keep_blank_values=True)))
