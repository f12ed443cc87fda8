"""The scenario lab's recorded captures, read the way `stallscope findings` reads a folder."""

from __future__ import annotations

from pathlib import Path

from stallscope.analysis.findings.digest import CaptureDigest
from stallscope.commands.findings import read_side
from tests.fixtures.corpus import REPO_ROOT

LAB = REPO_ROOT / "lab"


def scenarios() -> list[str]:
    """Every scenario with both variants recorded (folder name = the detector id it proves)."""
    return sorted(
        p.name
        for p in LAB.iterdir()
        if (p / "captures" / "bad").is_dir() and (p / "captures" / "fixed").is_dir()
    )


def variant(scenario: str, name: str) -> Path:
    return LAB / scenario / "captures" / name


def digests(scenario: str, name: str) -> list[CaptureDigest]:
    side = read_side([variant(scenario, name)], name)
    assert side.digests, f"{scenario}/{name}: nothing readable ({side.notes})"
    return side.digests
