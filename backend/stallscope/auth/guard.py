"""Every API route declares the permission it needs, as one of the dependencies below.

`READ`, `RESPOND`, `UPLOAD` and `ADMIN` are FastAPI `Security` dependencies: the permission is a
security scope, so it is written into the OpenAPI schema beside the credentials the route accepts
(a session cookie or a bearer token). The role-matrix test walks that schema, and `create_app`
refuses to start when an `/api` route declares nothing (`PUBLIC_ROUTES` excepted), so a route
without a permission cannot ship by accident.

Cross-site request forgery: the session cookie is HttpOnly and SameSite=Strict, and every write must
pass `BrowserGuard` (same Origin, and a body type or header no other site can send without a CORS
preflight the console never grants).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer, SecurityScopes

from stallscope.auth.guest_links import view_allowed
from stallscope.auth.identify import SIGN_IN, from_bearer, from_session_cookie
from stallscope.auth.principal import Principal
from stallscope.auth.roles import VERBS, Permission
from stallscope.deps import SessionDep
from stallscope.kit.errors import Forbidden, Unauthorized

SESSION_COOKIE = "stallscope_session"

session_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    scheme_name="session",
    description="Set by POST /api/auth/login (or a guest link); HttpOnly, SameSite=Strict.",
    auto_error=False,
)
bearer_token = HTTPBearer(
    scheme_name="token",
    description="A personal API token (`ssp_…`, its owner's role) or a collector token (`sst_…`, uploads).",
    auto_error=False,
)

PUBLIC_ROUTES = frozenset(
    {
        ("GET", "/api/health"),
        ("POST", "/api/auth/login"),
        ("GET", "/api/auth/oidc"),
        ("GET", "/api/auth/oidc/login"),
        ("GET", "/api/auth/oidc/callback"),
        ("POST", "/api/guest/{secret}"),
    }
)
"""Routes anyone may call: health, signing in, and redeeming a guest link."""


def authorize(
    request: Request,
    scopes: SecurityScopes,
    session: SessionDep,
    cookie: Annotated[str | None, Depends(session_cookie)],
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_token)],
) -> Principal:
    """The request's principal, when it holds every permission the route declares (401 without
    credentials, 403 when they do not reach)."""
    if credentials is not None:
        principal = from_bearer(session, credentials.credentials.strip())
    elif cookie:
        principal = from_session_cookie(session, cookie)
    else:
        raise Unauthorized(f"not signed in: {SIGN_IN}")
    for scope in scopes.scopes:
        permission = Permission(scope)
        if not principal.may(permission):
            raise Forbidden(f"{principal.describe()} may not {VERBS[permission]}")
    if principal.is_guest and not view_allowed(principal, request.url.path):
        shown = ", ".join(principal.views or ())
        raise Forbidden(f"this guest link shows only these views: {shown}")
    request.state.principal = principal
    return principal


READ = Security(authorize, scopes=[Permission.READ])
RESPOND = Security(authorize, scopes=[Permission.RESPOND])
UPLOAD = Security(authorize, scopes=[Permission.UPLOAD])
ADMIN = Security(authorize, scopes=[Permission.ADMIN])
EXPORT = Security(authorize, scopes=[Permission.EXPORT])

Reader = Annotated[Principal, READ]
Responder = Annotated[Principal, RESPOND]
Uploader = Annotated[Principal, UPLOAD]
Admin = Annotated[Principal, ADMIN]
Exporter = Annotated[Principal, EXPORT]
