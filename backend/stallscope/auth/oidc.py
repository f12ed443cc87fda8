"""Single sign-on through an OpenID Connect provider (authorization code flow with PKCE, Authlib).

The console redirects to the provider with a fresh state, nonce and PKCE verifier, kept in
`oidc_logins` for ten minutes (not in a cookie: the provider's redirect back is a cross-site
navigation, which a SameSite=Strict cookie does not survive). The callback exchanges the code, checks
the ID token's signature (the provider's published keys, with joserfc), issuer, audience, expiry and
nonce, then signs in the account with that (issuer, subject), making it at the first sign-on. Roles
come from the provider's groups when groups are mapped (checked at every sign-on, so removing someone
from the admin group there takes effect here), else the configured default for new accounts.

Authlib, joserfc and httpx are imported when a sign-on starts, not with the console: a console
without single sign-on need not hold their 15 MiB in every API process.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth import audit, repository, users
from stallscope.auth.login import NewSession, start_session
from stallscope.auth.principal import Principal
from stallscope.auth.roles import Role
from stallscope.config import Settings
from stallscope.kit.errors import NotFound, Unauthorized

if TYPE_CHECKING:
    from authlib.integrations.httpx_client import OAuth2Client

PENDING_FOR = timedelta(minutes=10)
DISCOVERY_TTL_S = 3600.0
HTTP_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class Provider:
    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    userinfo_endpoint: str | None


_discovered: dict[str, tuple[float, Provider]] = {}


def enabled(settings: Settings) -> bool:
    return bool(settings.oidc_issuer and settings.oidc_client_id)


def provider(settings: Settings) -> Provider:
    """The provider's endpoints from its discovery document (kept an hour)."""
    if not enabled(settings):
        raise NotFound("single sign-on is not configured (STALLSCOPE_OIDC_ISSUER, STALLSCOPE_OIDC_CLIENT_ID)")
    issuer = str(settings.oidc_issuer).rstrip("/")
    cached = _discovered.get(issuer)
    if cached is not None and time.monotonic() - cached[0] < DISCOVERY_TTL_S:
        return cached[1]
    import httpx

    try:
        document = httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=HTTP_TIMEOUT_S).json()
    except (httpx.HTTPError, ValueError) as exc:
        raise Unauthorized(
            f"the identity provider at {issuer} did not answer its discovery document: {exc}"
        ) from exc
    found = Provider(
        issuer=str(document["issuer"]),
        authorization_endpoint=str(document["authorization_endpoint"]),
        token_endpoint=str(document["token_endpoint"]),
        jwks_uri=str(document["jwks_uri"]),
        userinfo_endpoint=str(document["userinfo_endpoint"]) if document.get("userinfo_endpoint") else None,
    )
    _discovered[issuer] = (time.monotonic(), found)
    return found


def _client(settings: Settings, redirect_uri: str) -> OAuth2Client:
    from authlib.integrations.httpx_client import OAuth2Client

    return OAuth2Client(
        client_id=settings.oidc_client_id,
        client_secret=settings.oidc_client_secret,
        scope=settings.oidc_scopes,
        redirect_uri=redirect_uri,
        code_challenge_method="S256",
        timeout=HTTP_TIMEOUT_S,
    )


def begin(session: Session, settings: Settings, redirect_uri: str, next_path: str) -> str:
    """Where to send the browser: the provider's sign-in, with this attempt's state kept here."""
    found = provider(settings)
    state, nonce, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    session.execute(
        text("DELETE FROM oidc_logins WHERE created_at < :old"), {"old": datetime.now(UTC) - PENDING_FOR}
    )
    session.execute(
        text("INSERT INTO oidc_logins (state, nonce, code_verifier, next) VALUES (:s, :n, :v, :next)"),
        {"s": state, "n": nonce, "v": verifier, "next": next_path},
    )
    with _client(settings, redirect_uri) as client:
        url, _ = client.create_authorization_url(
            found.authorization_endpoint, state=state, nonce=nonce, code_verifier=verifier
        )
    return str(url)


def finish(
    session: Session, settings: Settings, redirect_uri: str, code: str, state: str, address: str
) -> tuple[NewSession, str]:
    """Exchange the code, check the ID token, sign the account in; returns the session and where to go."""
    row = session.execute(
        text("DELETE FROM oidc_logins WHERE state = :s RETURNING nonce, code_verifier, next, created_at"),
        {"s": state},
    ).first()
    if row is None or row[3] < datetime.now(UTC) - PENDING_FOR:
        raise Unauthorized("this sign-on is unknown or took over ten minutes: start again")
    nonce, verifier, next_path = str(row[0]), str(row[1]), str(row[2])
    found = provider(settings)
    with _client(settings, redirect_uri) as client:
        try:
            token = client.fetch_token(found.token_endpoint, code=code, code_verifier=verifier)
        except Exception as exc:  # the provider refused the code: say so, whatever the library raised
            raise Unauthorized(f"the identity provider refused the sign-on: {exc}") from exc
    claims = _id_token_claims(settings, found, token, nonce) | _userinfo(found, token)
    principal = _account(session, settings, found.issuer, claims)
    started = start_session(session, principal)
    audit.record(
        session, started.principal, "login", "user", principal.user_id, detail={"via": "sso"}, address=address
    )
    return started, next_path


def _id_token_claims(
    settings: Settings, found: Provider, token: dict[str, Any], nonce: str
) -> dict[str, Any]:
    import httpx
    from joserfc import jwt
    from joserfc.errors import JoseError
    from joserfc.jwk import KeySet

    id_token = token.get("id_token")
    if not id_token:
        raise Unauthorized("the identity provider sent no ID token: is the 'openid' scope asked for?")
    required = jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": found.issuer},
        aud={"essential": True, "value": settings.oidc_client_id},
        sub={"essential": True},
        exp={"essential": True},
        nonce={"essential": True, "value": nonce},
    )
    try:
        keys = KeySet.import_key_set(httpx.get(found.jwks_uri, timeout=HTTP_TIMEOUT_S).json())
        decoded = jwt.decode(id_token, keys)  # the signature, with the provider's published keys
        required.validate(decoded.claims)  # issuer, audience, expiry, nonce
    except (JoseError, ValueError, httpx.HTTPError) as exc:
        raise Unauthorized(f"the ID token did not check out: {exc}") from exc
    return dict(decoded.claims)


def _userinfo(found: Provider, token: dict[str, Any]) -> dict[str, Any]:
    """The claims a provider keeps out of the ID token (email, name, groups), from its userinfo
    endpoint; `sub` is left to the checked ID token."""
    if found.userinfo_endpoint is None or not token.get("access_token"):
        return {}
    import httpx

    headers = {"Authorization": f"Bearer {token['access_token']}"}
    try:
        answer = httpx.get(found.userinfo_endpoint, headers=headers, timeout=HTTP_TIMEOUT_S).json()
    except (httpx.HTTPError, ValueError):
        return {}
    return {k: v for k, v in answer.items() if k != "sub"} if isinstance(answer, dict) else {}


def _role_from_groups(settings: Settings, claims: dict[str, Any]) -> Role | None:
    groups = claims.get(settings.oidc_groups_claim) or []
    held = {str(g) for g in groups} if isinstance(groups, list) else {str(groups)}
    admins, responders = _groups(settings.oidc_admin_groups), _groups(settings.oidc_responder_groups)
    if held & admins:
        return Role.ADMIN
    if held & responders:
        return Role.RESPONDER
    if admins or responders:
        return Role(settings.oidc_default_role)
    return None


def _groups(listed: str) -> set[str]:
    return {g.strip() for g in listed.split(",") if g.strip()}


def _account(session: Session, settings: Settings, issuer: str, claims: dict[str, Any]) -> Principal:
    subject = str(claims["sub"])
    mapped = _role_from_groups(settings, claims)
    row = session.execute(
        text("SELECT id FROM users WHERE oidc_issuer = :iss AND oidc_subject = :sub"),
        {"iss": issuer, "sub": subject},
    ).first()
    if row is None:
        name = _free_name(session, str(claims.get("preferred_username") or claims.get("email") or subject))
        role = mapped or Role(settings.oidc_default_role)
        created = users.create_user(session, name, role.value, None, claims.get("email"))
        session.execute(
            text("UPDATE users SET oidc_issuer = :iss, oidc_subject = :sub WHERE id = :id"),
            {"iss": issuer, "sub": subject, "id": created.id},
        )
        audit.record(
            session,
            None,
            "create",
            "user",
            created.id,
            detail={"name": name, "role": role.value, "via": "sso"},
        )
        user_id = created.id
    else:
        user_id = int(row[0])
        if mapped is not None:
            repository.update_user(session, user_id, role=mapped.value)
    user = repository.user_by_id(session, user_id)
    assert user is not None
    if user.disabled_at is not None:
        raise Unauthorized("this account is disabled: ask an admin")
    return Principal(role=Role(user.role), name=user.name, via="session", user_id=user.id)


def _free_name(session: Session, wanted: str) -> str:
    """The provider's user name (or the email's local part) as an account name, made unique."""
    base = re.sub(r"[^A-Za-z0-9._@-]", "-", wanted.split("@")[0] if "@" in wanted else wanted)[:56] or "user"
    if not base[0].isalnum():
        base = f"u{base}"
    name, n = base, 1
    while repository.user_by_name(session, name) is not None:
        n += 1
        name = f"{base}-{n}"
    return name
