"""Signatures over real captures: the lab's recorded bad and fixed runs of two stories (a lock
convoy off the CPU, eBPF probes on it). A rule fires on the bad run and stays quiet on the fixed
one; thresholds, states and process filters narrow it; a rule that cannot be evaluated is refused
in words."""

from __future__ import annotations

import pytest

from stallscope.analysis.signatures import Rule, RuleError, evaluate
from tests.analysis.findings.lab import digests

CONVOY = Rule("convoy", r"__lll_lock_wait", "off-cpu")
PROBES = Rule("probes", r"^kretprobe_", "cpu")


@pytest.mark.parametrize(
    ("scenario", "rule"), [("lock-convoy", CONVOY), ("instrumentation-overhead", PROBES)]
)
def test_fires_on_the_bad_run_only(scenario: str, rule: Rule) -> None:
    bad = evaluate(rule, digests(scenario, "bad"))
    fixed = evaluate(rule, digests(scenario, "fixed"))
    assert bad.fired
    assert bad.weight > 0
    assert 0 < bad.share <= 1
    assert not fixed.fired
    assert fixed.weight == 0
    top_frames, top_weight = bad.stacks[0]
    assert any(rule.pattern.strip("^") in frame for frame in top_frames)
    assert 0 < top_weight <= bad.weight
    assert bad.threads
    assert sum(t[3] for t in bad.threads) <= bad.weight


def test_a_share_threshold_above_the_match_keeps_it_quiet() -> None:
    bad = evaluate(CONVOY, digests("lock-convoy", "bad"))
    below = Rule("convoy", CONVOY.pattern, "off-cpu", min_share=bad.share * 0.9)
    above = Rule("convoy", CONVOY.pattern, "off-cpu", min_share=min(bad.share * 1.1, 1.0))
    assert evaluate(below, digests("lock-convoy", "bad")).fired
    assert not evaluate(above, digests("lock-convoy", "bad")).fired


def test_a_time_threshold_is_off_cpu_milliseconds() -> None:
    bad = evaluate(CONVOY, digests("lock-convoy", "bad"))
    matched_ms = bad.weight / 1e6
    assert evaluate(
        Rule("c", CONVOY.pattern, "off-cpu", min_ms=matched_ms - 1), digests("lock-convoy", "bad")
    ).fired
    assert not evaluate(
        Rule("c", CONVOY.pattern, "off-cpu", min_ms=matched_ms + 1), digests("lock-convoy", "bad")
    ).fired


def test_state_and_process_narrow_the_match() -> None:
    runs = digests("lock-convoy", "bad")
    every_state = evaluate(CONVOY, runs)
    asleep = evaluate(Rule("c", CONVOY.pattern, "off-cpu", state="S"), runs)
    running = evaluate(Rule("c", CONVOY.pattern, "off-cpu", state="R"), runs)
    assert 0 < asleep.weight <= every_state.weight
    assert running.weight < asleep.weight
    one_thread = evaluate(Rule("c", CONVOY.pattern, "off-cpu", process=r"^request-0$"), runs)
    assert 0 < one_thread.weight < every_state.weight
    assert {comm for _, _, comm, _ in one_thread.threads} == {"request-0"}
    assert not evaluate(Rule("c", CONVOY.pattern, "off-cpu", process=r"^nginx$"), runs).fired


def test_a_finding_rule_fires_when_the_named_detector_finds_its_cause() -> None:
    detector = Rule("convoy detector", r"^lock-convoy$", "finding")
    bad = evaluate(detector, digests("lock-convoy", "bad"))
    assert bad.fired
    assert [f["id"] for f in bad.findings] == ["lock-convoy"]
    assert bad.findings[0]["severity"] in {"warning", "critical"}
    assert bad.findings[0]["evidence"]
    assert bad.evidence()["findings"] == bad.findings  # what the alert keeps and sends
    assert 0 < bad.share <= 1
    assert not evaluate(detector, digests("lock-convoy", "fixed")).fired
    assert not evaluate(Rule("other", r"^thp-compaction$", "finding"), digests("lock-convoy", "bad")).fired


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        (Rule("r", "(unclosed", "cpu"), "not a regular expression"),
        (Rule("r", "x", "cpu", process="[z-a]"), "process expression"),
        (Rule("r", "x", "cpu", state="D"), "off-CPU rules only"),
        (Rule("r", "x", "cpu", min_ms=5), "judged by min_share"),
        (Rule("r", "x", "off-cpu", min_share=1.5), "between 0 and 1"),
        (Rule("r", "", "cpu"), "empty"),
        (Rule("r", "lock-convoy", "finding", min_share=0.2), "do not apply to a finding rule"),
    ],
)
def test_a_rule_that_cannot_be_evaluated_is_refused_in_words(rule: Rule, words: str) -> None:
    with pytest.raises(RuleError, match=words):
        rule.check()
