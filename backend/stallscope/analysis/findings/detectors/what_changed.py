"""What changed against the baseline: the largest differences, ranked by how much they explain.

Whenever a healthy side exists (another host, the fixed capture), the functions whose share of CPU
and of blocked time grew most, the scheduler states threads moved into, frames found only on the
impacted side, and the settings that differ (those known to cause stalls first). No threshold
decides whether something is wrong: this is where to look when no named cause matched.
"""

from __future__ import annotations

from collections import Counter

from stallscope.analysis.config_hints import hint_for
from stallscope.analysis.findings.detector import Detector, Links, Threshold
from stallscope.analysis.findings.finding import Evidence, Finding, Severity
from stallscope.analysis.findings.profile import Profile
from stallscope.analysis.findings.wording import pct
from stallscope.analysis.thread_timeline import STATES

MIN_DELTA = 0.05
"""A function's share must move by five points to be listed."""
SHOWN = 3


def _shares(weights: dict[str, int], total: int) -> dict[str, float]:
    """Each function's inclusive share: of the weight, the stacks it appears in."""
    return {name: w / total for name, w in weights.items()} if total else {}


def _cpu_shares(p: Profile) -> dict[str, float]:
    return _shares(p.cpu_inclusive(), p.cpu_total)


def _offcpu_shares(p: Profile) -> dict[str, float]:
    return _shares(*p.offcpu_inclusive(("D", "R", "R+")))


def _states(p: Profile) -> dict[str, float]:
    totals: Counter[str] = Counter()
    wall = 0
    for t in p.sched_threads():
        wall += t.summary.wall_ns
        for state, ns in t.summary.state_ns.items():
            totals[state] += ns
    return {state: totals[state] / wall for state in STATES} if wall else {}


class WhatChanged(Detector):
    id = "what-changed"
    title = "What changed against the baseline"
    needs = ("cpu", "offcpu", "threads", "snapshot")
    thresholds = (
        Threshold(
            "min_delta", MIN_DELTA, "share", "change in a function's share (CPU or blocked time) to be listed"
        ),
    )
    confidence_rule = "0.5, always info: a difference, not a diagnosis (named causes rank above it)"
    remediation = "Read the largest change in the diff view; it is where the symptom's time went."
    next_checks = ("Open the diff view of the two sides; zoom into the largest red frame.",)

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        if baseline is None or baseline.empty:
            return None
        evidence: list[Evidence] = []
        biggest = 0.0
        for label, source, a, b in (
            ("CPU", None, _cpu_shares(p), _cpu_shares(baseline)),
            ("Blocked (D) and runnable", "off-cpu", _offcpu_shares(p), _offcpu_shares(baseline)),
        ):
            deltas = sorted(((a.get(n, 0.0) - b.get(n, 0.0), n) for n in a), reverse=True)
            for delta, name in deltas[:SHOWN]:
                if delta < MIN_DELTA:
                    break
                biggest = max(biggest, delta)
                new = " (not on the baseline)" if name not in b else ""
                evidence.append(
                    Evidence(
                        f"{label}: {name}",
                        f"{pct(a[name])} here against {pct(b.get(name, 0.0))} on the baseline{new}",
                        delta,
                        "share",
                        b.get(name, 0.0),
                        view=links.diff(q=name, source=source),
                    )
                )
        ours_states, theirs_states = _states(p), _states(baseline)
        if ours_states and theirs_states:
            shifts = sorted(((ours_states[s] - theirs_states[s], s) for s in STATES), reverse=True)
            delta, state = shifts[0]
            if delta >= MIN_DELTA:
                evidence.append(
                    Evidence(
                        f"Threads {state}",
                        f"{pct(ours_states[state])} of thread time here against "
                        f"{pct(theirs_states[state])} on the baseline",
                        delta,
                        "share",
                        theirs_states[state],
                        view=links.threads(),
                    )
                )
        changed = [
            (section, key, value, baseline.settings.get((section, key)))
            for (section, key), value in p.settings.items()
            if baseline.settings
            and (section, key) in baseline.settings
            and baseline.settings[(section, key)] != value
        ]
        hinted = [c for c in changed if hint_for(c[0], c[1])]
        for section, key, value, other in hinted[:SHOWN]:
            evidence.append(
                Evidence(
                    f"Setting {section} {key}",
                    f"{value} here, {other} on the baseline",
                    view=links.config_diff(),
                )
            )
        if not evidence:
            return None
        top = evidence[0]
        return self.finding(
            severity=Severity.INFO,
            confidence=0.5,
            summary=f"Largest change against the baseline: {top.label}, {top.text}.",
            evidence=evidence,
            view=top.view or links.threads(),
            baseline=f"Compared with {', '.join(baseline.hosts)}.",
            score=biggest,
        )
