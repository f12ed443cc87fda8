"""Every lab scenario proves its detector: in the top three on the bad variant (with and without the
fixed variant as baseline), and never a warning or critical finding of its kind on the fixed one."""

from __future__ import annotations

from functools import cache

import pytest

from stallscope.analysis.findings.detectors import DETECTORS
from stallscope.analysis.findings.digest import CaptureDigest
from stallscope.analysis.findings.engine import run_findings
from stallscope.analysis.findings.finding import Severity
from tests.analysis.findings.lab import digests, scenarios

TOP = 3
DETECTOR_IDS = {d.id for d in DETECTORS}


@cache
def _read(scenario: str, name: str) -> tuple[CaptureDigest, ...]:
    return tuple(digests(scenario, name))


def test_every_scenario_names_a_detector() -> None:
    assert scenarios(), "the lab has no recorded scenario"
    assert set(scenarios()) <= DETECTOR_IDS


@pytest.mark.parametrize("scenario", scenarios())
@pytest.mark.parametrize("with_baseline", [False, True], ids=["alone", "against-fixed"])
def test_the_bad_variant_names_its_cause_in_the_top_three(scenario: str, with_baseline: bool) -> None:
    baseline = _read(scenario, "fixed") if with_baseline else ()
    result = run_findings(_read(scenario, "bad"), baseline)
    ranked = [f.id for f in result.findings]
    assert scenario in ranked[:TOP], f"{scenario} not in the top {TOP}: {ranked}"
    finding = next(f for f in result.findings if f.id == scenario)
    assert finding.severity >= Severity.WARNING
    assert finding.evidence
    assert all(e.text for e in finding.evidence)


@pytest.mark.parametrize("scenario", scenarios())
@pytest.mark.parametrize("with_baseline", [False, True], ids=["alone", "against-bad"])
def test_the_fixed_variant_has_no_warning_of_that_kind(scenario: str, with_baseline: bool) -> None:
    baseline = _read(scenario, "bad") if with_baseline else ()
    result = run_findings(_read(scenario, "fixed"), baseline)
    loud = [f for f in result.findings if f.id == scenario and f.severity >= Severity.WARNING]
    assert not loud, f"{scenario} fired on its fixed variant: {loud[0].summary}"
