"""Parse warnings in the offline commands' output: a warning about one line names it, one about the
whole input (here: scheduler samples recorded twice) names no line, never "line 0"."""

from __future__ import annotations

from pathlib import Path

import pytest

from stallscope.cli import main
from stallscope.ingest.model import ParseWarning
from tests.ingest.test_sched_intervals import switch
from tests.threads.test_threads_api import SCHED

REPEATED = "1 sched_switch sample(s) repeated exactly"


def test_a_warning_names_its_line_only_when_it_has_one() -> None:
    assert str(ParseWarning(12, "bad header")) == "line 12: bad header"
    assert str(ParseWarning(0, "events were lost")) == "events were lost"


@pytest.fixture
def twice(tmp_path: Path) -> Path:
    """A scheduler capture with one switch recorded twice: a warning about the whole capture."""
    path = tmp_path / "sched.txt"
    path.write_text(switch("worker", 100, 0, "0.500000", "S", "swapper/0", 0) * 2 + SCHED)
    return path


@pytest.mark.parametrize(
    ("command", "out"),
    [(["inspect"], "out"), (["threads"], "err"), (["heatmap", "--stream", "off-cpu"], "err")],
)
def test_commands_print_a_whole_capture_warning_without_a_line(
    twice: Path, capsys: pytest.CaptureFixture[str], command: list[str], out: str
) -> None:
    main([*command, str(twice)])
    printed = getattr(capsys.readouterr(), out)
    assert REPEATED in printed
    assert "line 0" not in printed
