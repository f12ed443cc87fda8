"""The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's request
carries it), Secure whenever the console is reached over HTTPS (directly or behind a proxy that
says so)."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import Request, Response

from stallscope.auth.guard import SESSION_COOKIE


def _secure(request: Request) -> bool:
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


def set_session_cookie(request: Request, response: Response, secret: str, expires_at: datetime) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        expires=expires_at.astimezone(UTC),
        path="/",
        httponly=True,
        samesite="strict",
        secure=_secure(request),
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="strict", secure=_secure(request)
    )


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"
