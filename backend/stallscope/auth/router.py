"""HTTP routes for signing in and out, who am I, one's own password and API tokens."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from stallscope.auth import api_tokens, audit, login, repository, users
from stallscope.auth.cookies import clear_session_cookie, client_address, set_session_cookie
from stallscope.auth.guard import SESSION_COOKIE, Reader
from stallscope.auth.passwords import verify
from stallscope.auth.principal import Principal
from stallscope.auth.schemas import (
    ApiTokenCreate,
    ApiTokenCreated,
    ApiTokenOut,
    LoginIn,
    MeOut,
    PasswordChange,
)
from stallscope.deps import SessionDep
from stallscope.kit.errors import Forbidden, Unauthorized

router = APIRouter(prefix="/api/auth", tags=["auth"])


def me_out(principal: Principal) -> MeOut:
    return MeOut(
        name=principal.name,
        role=principal.role.value,
        via="guest" if principal.is_guest else ("token" if principal.via == "token" else "session"),
        user_id=principal.user_id,
        incident_id=principal.incident_id,
        capture_ids=list(principal.capture_ids) if principal.capture_ids is not None else None,
        views=list(principal.views) if principal.views is not None else None,
        permissions=principal.permissions,
        expires_at=principal.expires_at,
    )


def _person(principal: Principal) -> int:
    if principal.user_id is None:
        raise Forbidden(f"{principal.describe()} has no account to change")
    return principal.user_id


@router.post("/login")
def post_login(body: LoginIn, request: Request, response: Response, session: SessionDep) -> MeOut:
    """Check a name and password and start a session (an HttpOnly cookie). Throttled: five failures
    for a name or twenty from an address within 15 minutes answer 429 until the window passes."""
    started = login.log_in(session, body.username.strip(), body.password, client_address(request))
    session.commit()
    set_session_cookie(request, response, started.secret, started.expires_at)
    return me_out(started.principal)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
def post_logout(request: Request, session: SessionDep, principal: Reader) -> Response:
    """End this session (its cookie stops working everywhere, not only in this browser)."""
    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        login.log_out(session, secret)
        session.commit()
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    clear_session_cookie(request, response)
    return response


@router.get("/me")
def get_me(principal: Reader) -> MeOut:
    return me_out(principal)


@router.post("/password")
def change_password(body: PasswordChange, session: SessionDep, principal: Reader) -> MeOut:
    """Change one's own password (the current one is asked again); every other session ends."""
    user_id = _person(principal)
    row = repository.user_by_id(session, user_id)
    if row is None or not verify(row.password_hash, body.current):
        raise Unauthorized("the current password is wrong")
    users.set_password(
        session, user_id, body.new, principal.credential_id if principal.via == "session" else None
    )
    audit.record(session, principal, "change-password", "user", user_id)
    session.commit()
    return me_out(principal)


@router.get("/tokens")
def list_api_tokens(session: SessionDep, principal: Reader) -> list[ApiTokenOut]:
    return api_tokens.list_for(session, _person(principal))


@router.post("/tokens", status_code=status.HTTP_201_CREATED)
def create_api_token(body: ApiTokenCreate, session: SessionDep, principal: Reader) -> ApiTokenCreated:
    """A personal token with your role, for `STALLSCOPE_TOKEN`; its secret is in this answer only."""
    created = api_tokens.create(session, _person(principal), body)
    audit.record(session, principal, "create", "api-token", created.id, detail={"name": created.name})
    session.commit()
    return created


@router.delete("/tokens/{token_id}")
def revoke_api_token(token_id: int, session: SessionDep, principal: Reader) -> ApiTokenOut:
    revoked = api_tokens.revoke(session, _person(principal), token_id)
    audit.record(session, principal, "revoke", "api-token", token_id)
    session.commit()
    return revoked
