"""HTTP routes for single sign-on: whether it is on, the redirect to the provider, and its callback.
These are browser navigations, not API calls: errors come back as a redirect to the sign-in page
with the reason, where a person reads it."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel

from stallscope.auth import oidc
from stallscope.auth.cookies import client_address, set_session_cookie
from stallscope.deps import SessionDep, SettingsDep
from stallscope.kit.errors import ServiceError

router = APIRouter(prefix="/api/auth/oidc", tags=["auth"])


class OidcOut(BaseModel):
    enabled: bool
    label: str


def safe_next(raw: str | None) -> str:
    """A path inside this console, never another site (no scheme, no `//host`)."""
    if not raw or not raw.startswith("/") or raw.startswith("//") or "\\" in raw:
        return "/"
    return raw


def _redirect_uri(request: Request, configured: str | None) -> str:
    return configured or f"{str(request.base_url).rstrip('/')}/api/auth/oidc/callback"


def _to_login(reason: str) -> RedirectResponse:
    return RedirectResponse(f"/login?{urlencode({'error': reason})}", status_code=303)


@router.get("")
def oidc_status(settings: SettingsDep) -> OidcOut:
    """Whether the sign-in page offers single sign-on, and what its button says."""
    return OidcOut(enabled=oidc.enabled(settings), label=settings.oidc_label)


@router.get("/login", response_class=RedirectResponse, status_code=303)
def oidc_login(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    next: Annotated[str | None, Query(description="Where to land after signing in (a path)")] = None,
) -> RedirectResponse:
    """Send the browser to the identity provider's sign-in."""
    try:
        url = oidc.begin(
            session, settings, _redirect_uri(request, settings.oidc_redirect_url), safe_next(next)
        )
    except ServiceError as exc:
        return _to_login(str(exc))
    session.commit()
    return RedirectResponse(url, status_code=303)


@router.get("/callback", response_class=RedirectResponse, status_code=303)
def oidc_callback(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    code: str | None = None,
    state: str | None = None,
    error: str | None = None,
    error_description: str | None = None,
) -> RedirectResponse:
    """Where the provider sends the browser back: sign in, then go where the person was going."""
    if error or not code or not state:
        return _to_login(
            f"the identity provider said: {error_description or error or 'no code in the answer'}"
        )
    try:
        started, next_path = oidc.finish(
            session,
            settings,
            _redirect_uri(request, settings.oidc_redirect_url),
            code,
            state,
            client_address(request),
        )
    except ServiceError as exc:
        session.commit()  # the used-up state stays gone
        return _to_login(str(exc))
    session.commit()
    response = RedirectResponse(safe_next(next_path), status_code=303)
    set_session_cookie(request, response, started.secret, started.expires_at)
    return response
