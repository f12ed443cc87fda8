"""A JSON error answered straight from ASGI middleware, shaped like the API's own (`{"detail": …}`)."""

from __future__ import annotations

import json

from starlette.types import Send


async def send_error(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
