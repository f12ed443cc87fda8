"""Ask the console's own API for a view's answers, in process, as the person exporting.

The bundle's viewer replays exactly what the console's API answers, so the exporter asks that API
rather than re-running each view's service with its own reading of the parameters: the offline view
then shows the same numbers by construction. The request carries the exporter's own credentials
(session cookie or bearer token), so a guest's bundle holds only what the guest may see.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx
from starlette.types import ASGIApp

from stallscope.kit.errors import ServiceError

FORWARDED_HEADERS = ("authorization", "cookie")


class ConsoleReader:
    """GETs against the console app, answered without a network hop."""

    def __init__(self, app: ASGIApp, headers: Mapping[str, str]) -> None:
        forwarded = {name: value for name, value in headers.items() if name.lower() in FORWARDED_HEADERS}
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://localhost",
            headers={**forwarded, "X-Requested-With": "stallscope", "Accept": "application/json"},
            timeout=None,
        )

    async def json(self, url: str) -> Any:
        """The JSON answer to a GET, or the API's own error, raised with its status and message."""
        return (await self._get(url)).json()

    async def text(self, url: str) -> str:
        return (await self._get(url)).text

    async def bytes(self, url: str) -> bytes:
        return (await self._get(url)).content

    async def _get(self, url: str) -> httpx.Response:
        response = await self._client.get(url)
        if response.status_code != 200:
            raise BundleViewError(response.status_code, url, _detail(response))
        return response

    async def close(self) -> None:
        await self._client.aclose()


class BundleViewError(ServiceError):
    """A view chosen for the bundle could not be read: says which and why."""

    def __init__(self, status: int, url: str, detail: str) -> None:
        super().__init__(f"the view data at {url} could not be read ({status}): {detail}")
        self.status_code = 422 if status < 500 else 502


def _detail(response: httpx.Response) -> str:
    try:
        body = response.json()
    except json.JSONDecodeError:
        return response.text[:200]
    detail = body.get("detail") if isinstance(body, dict) else None
    return detail if isinstance(detail, str) else json.dumps(detail)[:200]
