"""Hand-made metric captures as Prometheus range-query results (`/api/v1/query_range` JSON), the
format the importer reads, with values and times chosen so every bucket has a known answer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from tests.fixtures.factories import upload_bytes
from tests.fixtures.worker import wait_parsed

T0 = datetime(2026, 11, 21, 8, 0, 0, tzinfo=UTC)
"""The healthy run starts here; the impacted run a day later (`DAY`)."""
DAY = timedelta(days=1)


def at(seconds: float, base: datetime = T0) -> datetime:
    return base + timedelta(seconds=seconds)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


Series = tuple[dict[str, str], Sequence[tuple[float, float | str]]]
"""(labels with `__name__`, [(seconds after the base, value)]); a string value goes as it is ("NaN")."""


def range_result(series: Sequence[Series], base: datetime = T0) -> bytes:
    result: list[dict[str, Any]] = []
    for labels, points in series:
        values = [
            [round(base.timestamp() + t, 3), v if isinstance(v, str) else repr(float(v))] for t, v in points
        ]
        result.append({"metric": labels, "values": values})
    body = {"status": "success", "data": {"resultType": "matrix", "result": result}}
    return json.dumps(body).encode()


def upload_parsed(api: TestClient, incident_id: int, data: bytes, filename: str, host: str) -> dict[str, Any]:
    capture = upload_bytes(api, incident_id, data, filename, host=host)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    return parsed


def series_list(api: TestClient, **params: str) -> list[dict[str, Any]]:
    response = api.get("/api/metrics/series", params=params)
    assert response.status_code == 200, response.text
    result: list[dict[str, Any]] = response.json()
    return result


def points(api: TestClient, series_id: int, **params: str) -> dict[str, Any]:
    response = api.get(f"/api/metrics/series/{series_id}/points", params=params)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result
