"""`Server-Timing: app;dur=<ms>` on every answer: how long the console took to answer a request.

Browsers' developer tools show it beside the request's own timing, so whoever asks "is it the
server or the network (or the browser)?" reads the answer off the request; the benchmarks read it
as the server's time, which a client's clock inflates by the body's transfer (a 50,000-node diff is
12 MB). It is measured up to the start of the response: for answers built whole (every view) that
is all the work; for streamed downloads it is the time to the first byte.
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"server-timing"


class ServerTiming:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed_ms = (time.perf_counter() - started) * 1000
                headers = [*message.get("headers", []), (HEADER, f"app;dur={elapsed_ms:.1f}".encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)


def server_ms(header: str | None) -> float | None:
    """The `app` duration of a `Server-Timing` header value, in milliseconds; None if absent."""
    for metric in (header or "").split(","):
        name, _, rest = metric.strip().partition(";")
        if name == "app" and rest.startswith("dur="):
            return float(rest[4:])
    return None
