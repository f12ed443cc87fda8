"""The API contract: the OpenAPI schema the console serves is the one committed for the front end.

`frontend/src/api/openapi.json` is what the front end's types are generated from (its README says
how). A change to a route or a schema changes the served schema, and this test fails until the
snapshot (and the types made from it) are refreshed and committed with the change, so every change
to the contract shows in review.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from stallscope.analysis.thread_timeline import STATES
from stallscope.contract import schema_text
from stallscope.main import create_app
from stallscope.threads.schemas import ThreadState

SNAPSHOT = Path(__file__).resolve().parents[2] / "frontend" / "src" / "api" / "openapi.json"
REFRESH = "scripts/contract (at the repository's root) writes it and the front end's types; commit both"
SHOWN_LINES = 120
LEFT_OUT = {
    "DiffNode": ["folded_frames", "truncated"],
    "FlameNode": ["folded_frames", "truncated"],
    "HTTPValidationError": ["detail"],
    "ValidationError": ["ctx", "input"],
}
"""Answers' fields sent only when they say something (a tree's frame marks), and FastAPI's own."""


@pytest.fixture(scope="module")
def served() -> dict[str, Any]:
    answer = TestClient(create_app(), base_url="http://localhost").get("/openapi.json")
    assert answer.status_code == 200, answer.text
    schema: dict[str, Any] = answer.json()
    return schema


def test_the_served_schema_is_the_committed_snapshot(served: dict[str, Any]) -> None:
    if not SNAPSHOT.is_file():
        pytest.fail(f"{SNAPSHOT} is missing: {REFRESH}")
    committed = SNAPSHOT.read_text(encoding="utf-8")
    text = schema_text(served)
    if text == committed:
        return
    sides = ("committed openapi.json", "served /openapi.json")
    diff = list(difflib.unified_diff(committed.splitlines(), text.splitlines(), *sides, lineterm=""))
    shown = "\n".join(diff[:SHOWN_LINES])
    more = f"\n… {len(diff) - SHOWN_LINES} more diff lines" if len(diff) > SHOWN_LINES else ""
    pytest.fail(f"The API's schema is not the committed contract ({REFRESH}):\n{shown}{more}", pytrace=False)


def test_an_answer_leaves_out_only_the_fields_meant_to_be_left_out(served: dict[str, Any]) -> None:
    """An answer sends every field of its model, one with a default too; a schema that calls such a
    field optional gives it a needless `?` in the front end's types (derive the model from
    `AnswerModel`). The fields an answer does leave out are these."""
    schemas: dict[str, Any] = served["components"]["schemas"]
    answered = _reachable(schemas, [op.get("responses", {}) for op in _operations(served)])
    sent = _reachable(schemas, [op.get("requestBody", {}) for op in _operations(served)])
    optional = {
        name: sorted(set(schemas[name].get("properties", {})) - set(schemas[name].get("required", [])))
        for name in sorted(answered - sent)
    }
    assert {name: fields for name, fields in optional.items() if fields} == LEFT_OUT


def test_the_thread_states_of_the_api_are_the_analysis_states() -> None:
    assert get_args(ThreadState) == STATES


def _operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [op for path in schema["paths"].values() for op in path.values()]


def _reachable(schemas: dict[str, Any], roots: list[Any]) -> set[str]:
    """The component schemas `roots` refer to, directly or through other schemas."""
    found: set[str] = set()
    pending = list(roots)
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name not in found:
                    found.add(name)
                    pending.append(schemas[name])
            pending.extend(v for k, v in node.items() if k != "$ref")
    return found
