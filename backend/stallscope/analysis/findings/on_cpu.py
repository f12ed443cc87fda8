"""Detectors of CPU time burnt in a family of frames (spin locks, compaction, probes, GC).

The headline number is the share of the host's CPU samples whose stack holds one of the frames,
which is exactly what the flame graph's search for that frame shows. The severity comes from it,
provided enough samples back it; each cause adds what corroborates it (a setting, the callers).
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Finding
from stallscope.analysis.findings.profile import Match, Profile, Terms, heaviest_term
from stallscope.analysis.findings.wording import (
    count,
    pct,
    stack_text,
    thread_refs,
    threads_phrase,
    top_names,
    top_stack,
)

MIN_SAMPLES = 20
"""Fewer matching samples than this are noise at the sampling rates collectors use (49-99 Hz)."""
MAX_THREADS_NAMED = 8


def cpu_thresholds(warning: float, critical: float, info: float) -> tuple[Threshold, ...]:
    return (
        Threshold("info", info, "share", "of the host's CPU samples: worth a look"),
        Threshold("warning", warning, "share", "of the host's CPU samples"),
        Threshold("critical", critical, "share", "of the host's CPU samples"),
        Threshold("min_samples", MIN_SAMPLES, "count", "matching samples, below which nothing is reported"),
    )


class OnCpuDetector(Detector):
    """CPU samples whose stack matches `terms`; `skip` names the family's own frames when looking
    for who calls it."""

    terms: ClassVar[Terms]
    skip: ClassVar[Terms | None] = None
    what: ClassVar[str]
    """`in native_queued_spin_lock_slowpath`: completes "X% of CPU time is spent ..."."""
    needs: ClassVar[tuple[str, ...]] = ("cpu",)
    confidence_rule = "0.55; +0.15 with 200 or more matching samples; +0.2 when corroborated"

    def match(self, p: Profile) -> Match:
        return p.cpu_matching(self.terms, self.skip)

    def measure(self, p: Profile) -> Measure | None:
        if p.cpu_total == 0:
            return None
        m = self.match(p)
        return Measure(m.share, f"{pct(m.share)} of CPU samples")

    def search_term(self, match: Match) -> str:
        return heaviest_term(self.terms, match)

    def corroborate(self, p: Profile, match: Match, links: Links) -> list[Evidence]:
        return []

    def summary(self, p: Profile, match: Match) -> str:
        return f"{pct(match.share)} of CPU time on this host is spent {self.what}."

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        match = self.match(p)
        if match.count < self.threshold("min_samples"):
            return None
        severity = grade(
            match.share, self.threshold("warning"), self.threshold("critical"), self.threshold("info")
        )
        if severity is None:
            return None
        search = self.search_term(match)
        flame = links.flame(q=search)
        seen = p.cpu_matching(Terms(search))
        evidence = [
            Evidence(
                f"CPU {self.what}",
                f"{pct(match.share)} of {count(p.cpu_samples, 'CPU sample')} "
                f"({count(match.count, 'sample')})",
                match.share,
                "share",
            ),
            Evidence(
                f"Stacks with {search}", f"{pct(seen.share)} of CPU samples", seen.share, "share", view=flame
            ),
        ]
        threads = [key for key, _ in match.by_thread.most_common(MAX_THREADS_NAMED)]
        evidence.append(
            Evidence("Threads", f"{threads_phrase(threads)}; top: {top_names(_by_name(match), match.weight)}")
        )
        if match.callers:
            evidence.append(Evidence("Called from", top_names(match.callers, match.weight)))
        stack = top_stack(match.stacks)
        if stack:
            evidence.append(Evidence("Heaviest stack", stack_text(stack), view=flame))
        extra = self.corroborate(p, match, links)
        evidence += extra
        confidence = 0.55 + (0.15 if match.count >= 200 else 0) + (0.2 if extra else 0)
        return self.finding(
            severity=severity,
            confidence=min(confidence, 0.95),
            summary=self.summary(p, match),
            evidence=evidence,
            view=flame,
            threads=thread_refs(p.name, threads),
            score=match.share,
        )


def _by_name(match: Match) -> Counter[str]:
    names: Counter[str] = Counter()
    for (_, _, comm), weight in match.by_thread.items():
        names[comm] += weight
    return names
