"""Signatures: rules people write for what must never come back ("any `kretprobe_` frame", "over 5%
of CPU in `native_queued_spin_lock_slowpath`"), checked against each watch window.

A rule is a regular expression searched in frame names (Python's `re.search`, case-sensitive unless
the expression says `(?i)`), in CPU samples or in off-CPU time, optionally of one scheduler state
and of processes whose name matches a second expression. A `finding` rule instead names built-in
detectors by an expression over their ids (`lock-convoy|spin-lock`): it fires when one of them finds
its cause (severity warning or critical) in the window. A stack matches when one of its frames
does, and counts once however many do. A window matches when something matched and every threshold
set is reached:

- `min_share`: the matched share of the window's CPU samples (all processes: "the host spends 5% of
  its CPU here"), or of its off-CPU time in the rule's state;
- `min_ms`: off-CPU rules only, the matched off-CPU time in milliseconds. A CPU sample's weight is
  in its event's unit (cycles, or nanoseconds of cpu-clock), so CPU rules are judged by share.

The answer keeps the evidence an alert shows: the heaviest matching stacks and threads, or the
findings. Read from capture digests through `Profile` and the findings engine, so a rule counts the
way the detectors and views count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from stallscope.analysis.findings.digest import CaptureDigest
from stallscope.analysis.findings.engine import run_findings
from stallscope.analysis.findings.finding import Severity
from stallscope.analysis.findings.profile import Match, Profile

Source = Literal["cpu", "off-cpu", "finding"]
EVIDENCE_STACKS = 5
EVIDENCE_THREADS = 5
PATTERN_LIMIT = 1000
"""Characters an expression may have: a rule is a search term, not a program."""


class RuleError(ValueError):
    """A rule that cannot be evaluated, said in words for the person who wrote it."""


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    pattern: str
    source: Source
    state: str | None = None
    process: str | None = None
    min_share: float | None = None
    min_ms: float | None = None

    def check(self) -> None:
        """Raise `RuleError` naming what is wrong: an expression that does not compile, a threshold
        out of range, a state on a CPU rule, a time threshold on a CPU rule."""
        frame_test(self.pattern, "pattern")
        if self.process is not None:
            frame_test(self.process, "process")
        if self.source == "finding":
            given = [n for n, v in (("state", self.state), ("process", self.process)) if v is not None]
            given += [n for n, v in (("min_share", self.min_share), ("min_ms", self.min_ms)) if v is not None]
            if given:
                raise RuleError(
                    f"{' and '.join(given)} do not apply to a finding rule: the detector decides when its "
                    "cause is found"
                )
            return
        if self.source == "cpu" and self.state is not None:
            raise RuleError("a state applies to off-CPU rules only: CPU samples have no scheduler state")
        if self.source == "cpu" and self.min_ms is not None:
            raise RuleError(
                "min_ms applies to off-CPU rules only: a CPU sample's weight is in its event's unit "
                "(cycles or nanoseconds), so CPU rules are judged by min_share"
            )
        if self.min_share is not None and not 0 <= self.min_share <= 1:
            raise RuleError(f"min_share is a share between 0 and 1, not {self.min_share}")
        if self.min_ms is not None and self.min_ms < 0:
            raise RuleError(f"min_ms cannot be negative ({self.min_ms})")


def frame_test(expression: str, what: str) -> Callable[[str], bool]:
    """A name test from a rule's expression, or `RuleError` saying why it is not one."""
    if not expression:
        raise RuleError(f"the {what} expression is empty: it would match every name")
    if len(expression) > PATTERN_LIMIT:
        raise RuleError(f"the {what} expression is {len(expression)} characters; at most {PATTERN_LIMIT}")
    try:
        compiled = re.compile(expression)
    except re.error as exc:
        raise RuleError(f"the {what} expression {expression!r} is not a regular expression: {exc}") from exc
    search = compiled.search
    return lambda name: search(name) is not None


@dataclass(frozen=True, slots=True)
class RuleMatch:
    """What a rule matched in a window, and whether that fires it."""

    fired: bool
    weight: int
    """CPU: the samples' weight in their event's unit; off-CPU: nanoseconds."""
    total: int
    """The same, of everything the share is taken of."""
    count: int
    """Samples, or off-CPU intervals."""
    stacks: list[tuple[list[str], int]] = field(default_factory=list)
    """The heaviest matching stacks (frame names, root first) and their weight."""
    threads: list[tuple[int | None, int | None, str, int]] = field(default_factory=list)
    """The heaviest matching threads: (pid, tid, comm, weight)."""
    findings: list[dict[str, Any]] = field(default_factory=list)
    """A finding rule's: each matching finding's id, title, severity, summary and evidence lines."""
    score: float = 0.0
    """A finding rule's: the largest share of the symptom a matching finding explains (0 to 1)."""

    @property
    def share(self) -> float:
        if self.findings:
            return self.score
        return self.weight / self.total if self.total else 0.0

    def evidence(self) -> dict[str, Any]:
        """What an alert keeps of the match (JSON)."""
        return {
            "weight": self.weight,
            "total": self.total,
            "count": self.count,
            "stacks": [{"frames": frames, "weight": weight} for frames, weight in self.stacks],
            "threads": [
                {"pid": pid, "tid": tid, "comm": comm, "weight": weight}
                for pid, tid, comm, weight in self.threads
            ],
            "findings": self.findings,
        }


def evaluate(rule: Rule, digests: Sequence[CaptureDigest]) -> RuleMatch:
    """The rule over the captures of one window of one host (a watch round's CPU or off-CPU file)."""
    rule.check()
    if rule.source == "finding":
        return _findings_match(rule, digests)
    profile = Profile(rule.name, digests)
    test = frame_test(rule.pattern, "pattern")
    process = frame_test(rule.process, "process") if rule.process is not None else None
    if rule.source == "cpu":
        match = profile.cpu_where_frames(test, process)
    else:
        states = [rule.state] if rule.state is not None else None
        match = profile.offcpu_where_frames(test, process, states)
    return _judged(rule, match)


def _judged(rule: Rule, match: Match) -> RuleMatch:
    fired = match.weight > 0
    if rule.min_share is not None:
        fired = fired and match.share >= rule.min_share
    if rule.min_ms is not None:
        fired = fired and match.weight >= rule.min_ms * 1_000_000
    stacks = (
        [(list(names), weight) for names, weight in match.stacks.most_common(EVIDENCE_STACKS)]
        if fired
        else []
    )
    threads = [
        (pid, tid, comm, weight) for (pid, tid, comm), weight in match.by_thread.most_common(EVIDENCE_THREADS)
    ]
    return RuleMatch(fired, match.weight, match.total, match.count, stacks, threads if fired else [])


def _findings_match(rule: Rule, digests: Sequence[CaptureDigest]) -> RuleMatch:
    """The built-in detectors over the window; the rule fires on findings of the detectors it names
    that reached warning or critical."""
    named = frame_test(rule.pattern, "pattern")
    found = [
        f for f in run_findings(list(digests)).findings if named(f.id) and f.severity >= Severity.WARNING
    ]
    kept = [
        {
            "id": f.id,
            "title": f.title,
            "severity": f.severity.label,
            "summary": f.summary,
            "evidence": [f"{e.label}: {e.text}" for e in f.evidence],
        }
        for f in found
    ]
    return RuleMatch(
        bool(found), 0, 0, len(found), findings=kept, score=max((f.score for f in found), default=0.0)
    )
