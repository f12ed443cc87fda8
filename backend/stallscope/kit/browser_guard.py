"""What keeps other web pages out of the console: Host check, cross-site check, security headers.

The console listens on an address a browser can reach, and any page the browser opens can send it
requests. Three defences, one ASGI middleware:

- **Host.** A page on `evil.example` that rebinds its own DNS name to 127.0.0.1 talks to the
  console as same-origin, but its requests carry `Host: evil.example`. Only the listen address,
  localhost and the configured names (`STALLSCOPE_ALLOWED_HOSTS`) are answered.
- **Cross-site writes.** A form or a `no-cors` fetch on another site can still *send* a "simple"
  request (form-encoded, multipart or `text/plain`, or no body) with the user's browser. A write is
  refused when its `Origin` is not the console's own, or when it could have been sent without a
  CORS preflight: it must carry a non-simple content type (JSON, octet-stream) or the
  `X-Requested-With` header, which no page can add cross-site without the console's consent
  (which it never gives). `curl`, the CLI and the collector send one or the other.
- **Headers.** A CSP without inline script and with `frame-ancestors 'none'`, `nosniff`, no
  referrer. The interactive API docs load their script from a CDN, so they get a CSP of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stallscope.kit.asgi_reply import send_error

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIMPLE_CONTENT_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})
"""The content types a cross-site page may send without a preflight (the Fetch standard's list)."""
REQUEST_MARKER = "x-requested-with"

CONSOLE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")
COMMON_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def host_name(host_header: str) -> str:
    """`example.com:8000` → `example.com`; `[::1]:8000` → `::1`; lower case."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


class BrowserGuard:
    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self._app = app
        names = {h.strip().lower() for h in allowed_hosts if h.strip()}
        self._any_host = "*" in names
        self._hosts = frozenset(host_name(h) for h in names)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        refusal = self._refusal(scope["method"], host, headers)
        path: str = scope.get("path", "")
        csp = DOCS_CSP if path.startswith(DOCS_PATHS) else CONSOLE_CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [
                    *message["headers"],
                    *COMMON_HEADERS,
                    (b"content-security-policy", csp.encode()),
                ]
            await send(message)

        if refusal is not None:
            status, detail = refusal
            await send_error(send_with_headers, status, detail)
            return
        await self._app(scope, receive, send_with_headers)

    def _refusal(self, method: str, host: str, headers: dict[str, str]) -> tuple[int, str] | None:
        name = host_name(host)
        if not self._any_host and name not in self._hosts:
            return 400, (
                f"this console does not answer to the host name {name!r}; add it to "
                "STALLSCOPE_ALLOWED_HOSTS to reach the console by that name"
            )
        if method not in UNSAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return 403, f"cross-site request refused: origin {origin!r} is not this console"
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if REQUEST_MARKER in headers:
            return None
        if not content_type or content_type in SIMPLE_CONTENT_TYPES:
            shown = content_type or "no content type"
            return 415, (
                f"a write with {shown} could come from another site's form; send JSON or "
                "application/octet-stream, or add the header X-Requested-With"
            )
        return None


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin)
    return parts.scheme in {"http", "https"} and parts.netloc.lower() == host.strip().lower()
