"""Refuse a NUL in the URL with 422 naming the parameter, before any route sees it.

A `%00` in a query value or a path segment would otherwise travel into a SQL parameter, which
PostgreSQL refuses with an error the API answered as 500. Names of captured data may hold other
control characters, so only what cannot be stored is refused here; fields people type are checked
more strictly by their schemas (`kit/text.py`).
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Receive, Scope, Send

from stallscope.kit.asgi_reply import send_error
from stallscope.kit.text import UNSTORABLE, describe


class ParameterGuard:
    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = _problem(scope)
            if problem is not None:
                await send_error(send, 422, problem)
                return
        await self._app(scope, receive, send)


def _problem(scope: Scope) -> str | None:
    path: str = scope.get("path", "")
    found = UNSTORABLE.search(path)
    if found is not None:
        return f"the path contains {describe(found.group())}"
    query = scope.get("query_string", b"").decode("latin-1")
    if "%00" not in query and "\x00" not in query:
        return None
    for name, value in parse_qsl(query, keep_blank_values=True):
        for text, what in ((name, "a query parameter name"), (value, f"query parameter {name!r}")):
            found = UNSTORABLE.search(text)
            if found is not None:
                return f"{what} contains {describe(found.group())}"
    return "the query string contains a NUL character (U+0000)"
