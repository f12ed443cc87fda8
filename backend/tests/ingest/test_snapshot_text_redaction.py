"""A text snapshot keeps and masks exactly what the collector keeps and masks on the host."""

from __future__ import annotations

from types import ModuleType

import pytest

from stallscope.ingest.snapshot.model import ENV_OF_INTEREST
from stallscope.ingest.snapshot_text import secrets
from tests.fixtures.collector import build_collector, collector_module


@pytest.fixture(scope="module")
def collector(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The collector's redaction, from the file it ships as."""
    zipapp = build_collector(tmp_path_factory.mktemp("collector"))
    return collector_module(zipapp, "stallscope_collect.redaction")


def test_the_same_environment_variables_are_kept(collector: ModuleType) -> None:
    assert ENV_OF_INTEREST.pattern == collector.ENV_OF_INTEREST.pattern


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD=hunter2",
        "api_key: abc",
        "postgres://app:pw@db:5432/x",
        "Authorization: Bearer eyJhbGciOi",
        "PATH=/usr/bin",
        "MALLOC_ARENA_MAX=2",
        "Token=Abc DEF",
    ],
)
def test_values_are_masked_as_the_collector_masks_them(collector: ModuleType, text: str) -> None:
    assert secrets.redact_value(text) == collector.redact_value(text)


def test_command_lines_are_masked_as_the_collector_masks_them(collector: ModuleType) -> None:
    argv = ["app", "--password", "x", "--token=y", "--db", "mysql://u:p@h/db", "--port", "1"]
    assert secrets.redact_argv(argv) == collector.redact_argv(argv)
    assert "x" not in secrets.redact_argv(argv)


def test_free_text_masks_a_flag_followed_by_its_value() -> None:
    text = "1234 app --api-key s3cr3t --port 80\n5678 PASSWORD=abc other"
    masked = secrets.redact_text(text)
    assert "s3cr3t" not in masked
    assert "abc" not in masked
    assert "--port 80" in masked
