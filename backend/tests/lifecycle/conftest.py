"""Clients signed in as a responder and as a viewer, for the lifecycle's permission checks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from stallscope.main import create_app
from tests.fixtures.people import bearer, token_for


def _client(database_url: str, name: str, role: str) -> Iterator[TestClient]:
    headers = {"X-Requested-With": "stallscope", **bearer(token_for(database_url, name, role))}
    with TestClient(create_app(), base_url="http://localhost", headers=headers) as client:
        yield client


@pytest.fixture(scope="module")
def responder(database_url: str) -> Iterator[TestClient]:
    yield from _client(database_url, "lifecycle-responder", "responder")


@pytest.fixture(scope="module")
def viewer(database_url: str) -> Iterator[TestClient]:
    yield from _client(database_url, "lifecycle-viewer", "viewer")
