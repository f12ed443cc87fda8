"""The docs' detector table is the one the code generates, and every threshold it lists is used."""

from __future__ import annotations

from stallscope.analysis.findings.detectors import DETECTORS
from stallscope.analysis.findings.table import detector_table, with_table
from tests.fixtures.corpus import REPO_ROOT

DOC = REPO_ROOT / "docs" / "findings.md"


def test_the_docs_table_is_up_to_date() -> None:
    text = DOC.read_text()
    assert with_table(text) == text, (
        "regenerate: python -m stallscope.analysis.findings.table docs/findings.md"
    )


def test_every_detector_is_documented_once() -> None:
    table = detector_table()
    for detector in DETECTORS:
        assert table.count(f"`{detector.id}`") == 1
        assert detector.doc(), f"{detector.id} has no module docstring"
        assert detector.remediation
        assert detector.confidence_rule


def test_detector_ids_are_unique_and_stable_looking() -> None:
    ids = [d.id for d in DETECTORS]
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i for i in ids)
