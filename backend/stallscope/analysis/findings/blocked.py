"""Detectors of threads blocked under a family of kernel frames, one rule with per-cause details.

The headline number is the share of the affected threads' time spent blocked this way (`stalls.py`);
the severity comes from it, provided the blocked time adds up to something a user could feel.
Each cause adds what corroborates it (a setting, syscall latencies, a metric) and says so in its
evidence; corroboration raises the confidence.
"""

from __future__ import annotations

from typing import ClassVar

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Finding, Severity, ViewLink
from stallscope.analysis.findings.profile import Match, Profile, Terms, heaviest_term
from stallscope.analysis.findings.stalls import Stall, stall_of
from stallscope.analysis.findings.wording import (
    count,
    duration,
    pct,
    stack_text,
    thread_refs,
    threads_phrase,
    top_names,
    top_stack,
)

BLOCKED_THRESHOLDS = (
    Threshold("info", 0.01, "share", "of the affected threads' time blocked this way: worth a look"),
    Threshold("warning", 0.05, "share", "of the affected threads' time: users feel it"),
    Threshold("critical", 0.20, "share", "of the affected threads' time: the main cause of the slowness"),
    Threshold("min_blocked", 20, "ms", "blocked in all, below which nothing is reported"),
)


class BlockedDetector(Detector):
    """Threads blocked (off-CPU) with a blocking stack matching `terms` (and `also`, when set)."""

    terms: ClassVar[Terms]
    also: ClassVar[Terms | None] = None
    skip: ClassVar[Terms | None] = None
    states: ClassVar[tuple[str, ...] | None] = None
    what: ClassVar[str]
    """`blocked on mmap_lock`: completes "N threads spend X% of their time ..."."""
    needs: ClassVar[tuple[str, ...]] = ("offcpu", "threads")
    thresholds: ClassVar[tuple[Threshold, ...]] = BLOCKED_THRESHOLDS
    confidence_rule = (
        "0.5; +0.2 when two or more threads or 20 or more waits are affected; +0.2 when corroborated "
        "(see the detector's evidence)"
    )

    def match(self, p: Profile) -> Match:
        return p.offcpu_matching(self.terms, self.states, self.skip, self.also, blocked_only=True)

    def stall(self, p: Profile) -> Stall:
        return stall_of(p, self.match(p))

    def measure(self, p: Profile) -> Measure | None:
        if not p.has_offcpu:
            return None
        stall = self.stall(p)
        return Measure(stall.share, f"{pct(stall.share)} of the affected threads' time")

    def search_term(self, match: Match) -> str:
        return heaviest_term(self.terms, match)

    def grade(self, p: Profile, stall: Stall, match: Match) -> Severity | None:
        """The severity by the share of the affected threads' time (causes with a better measure of
        harm, such as a syscall's latency, grade by that instead)."""
        return grade(
            stall.share, self.threshold("warning"), self.threshold("critical"), self.threshold("info")
        )

    def view_evidence(self, p: Profile, search: str, flame: ViewLink, state: str | None) -> Evidence:
        """The number the linked flame graph shows: off-CPU time with the search term in the stack."""
        seen = p.offcpu_matching(Terms(search), [state] if state else None)
        where = f"in state {state}" if state else "off-CPU"
        return Evidence(
            f"Stacks with {search}",
            f"{pct(seen.share)} of the time {where} on this host",
            seen.share,
            "share",
            view=flame,
        )

    def corroborate(self, p: Profile, links: Links) -> list[Evidence]:
        """Evidence beyond the blocking stacks; each item raises the confidence."""
        return []

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        match = self.match(p)
        stall = stall_of(p, match)
        if stall.blocked_ns < self.threshold("min_blocked") * 1e6:
            return None
        severity = self.grade(p, stall, match)
        if severity is None:
            return None
        keys = [s.thread for s in stall.threads]
        state = self.states[0] if self.states and len(self.states) == 1 else None
        search = self.search_term(match)
        flame = links.flame(q=search, source="off-cpu", state=state)
        evidence = [
            Evidence(
                f"Time {self.what}",
                f"{pct(stall.share)} of the affected threads' time ({duration(stall.blocked_ns)} of "
                f"{duration(stall.wall_ns)}), {count(match.count, 'wait')}, longest "
                f"{duration(match.longest_ns)}",
                stall.share,
                "share",
            ),
            self.view_evidence(p, search, flame, state),
        ]
        worst = stall.worst
        if worst is not None:
            evidence.append(
                Evidence(
                    "Most affected thread",
                    f"{threads_phrase([worst.thread])}: {pct(worst.share)} of its time",
                    worst.share,
                    "share",
                )
            )
        stack = top_stack(match.stacks)
        if stack:
            evidence.append(
                Evidence(
                    "Heaviest blocking stack",
                    f"{stack_text(stack)} ({pct(match.stacks[stack] / match.weight if match.weight else 0)} "
                    "of this time)",
                )
            )
        if match.callers:
            evidence.append(Evidence("Called from", top_names(match.callers, match.weight)))
        extra = self.corroborate(p, links)
        evidence += extra
        confidence = 0.5
        if len(keys) >= 2 or match.count >= 20:
            confidence += 0.2
        if extra:
            confidence += 0.2
        return self.finding(
            severity=severity,
            confidence=min(confidence, 0.95),
            summary=f"{threads_phrase(keys)} spend {pct(stall.share)} of their time {self.what}.",
            evidence=evidence,
            view=flame,
            threads=thread_refs(p.name, keys),
            score=stall.share,
        )
