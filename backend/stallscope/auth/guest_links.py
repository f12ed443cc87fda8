"""Guest links for vendors: read-only, one incident (optionally some of its captures and views),
expiring (14 days unless told), revocable, every use in the audit log.

The link is `/g/<secret>`. Opening it starts a guest session (the same HttpOnly cookie as a person's)
that ends when the link expires or is revoked, whichever comes first; only the secret's digest is
stored.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, get_args

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth import audit
from stallscope.auth.login import NewSession, start_session
from stallscope.auth.principal import Principal
from stallscope.auth.roles import Role
from stallscope.auth.schemas import GuestLinkCreate, GuestLinkOut, GuestView
from stallscope.auth.secrets import digest_of, new_secret, shown_prefix
from stallscope.kit.errors import Invalid, NotFound, Unauthorized

GUEST_PREFIX = "ssg_"
DEFAULT_DAYS = 14
VIEWS: tuple[GuestView, ...] = get_args(GuestView)
"""What a link may be limited to; each names a view and the API routes behind it."""
VIEW_ROUTES: dict[str, tuple[str, ...]] = {
    "timeline": ("/api/timeline",),
    "flame": ("/api/flame", "/api/facets", "/api/stacks/"),
    "diff": ("/api/diff",),
    "threads": ("/api/threads",),
    "heatmap": ("/api/heatmap",),
    "metrics": ("/api/metrics/",),
    "events": ("/api/events",),
    "snapshots": ("/api/snapshots/", "/snapshots"),
    "findings": ("/findings",),
}
COLUMNS = (
    "id, incident_id, label, prefix, capture_ids, views, created_by, created_at, expires_at, revoked_at, "
    "last_used_at, uses, bundle"
)


def _out(row: Any) -> GuestLinkOut:
    keys = [c.strip() for c in COLUMNS.split(",")]
    return GuestLinkOut(**dict(zip(keys, row, strict=True)))


def create(
    session: Session, incident_id: int, data: GuestLinkCreate, creator: Principal
) -> tuple[GuestLinkOut, str]:
    unknown = sorted(set(data.views or ()) - set(VIEWS))
    if unknown:
        raise Invalid(f"unknown views {unknown}: a link can be limited to {', '.join(VIEWS)}")
    if data.capture_ids:
        owned = session.execute(
            text("SELECT id FROM captures WHERE id = ANY(:ids) AND incident_id = :inc"),
            {"ids": data.capture_ids, "inc": incident_id},
        )
        missing = sorted(set(data.capture_ids) - {int(r[0]) for r in owned})
        if missing:
            raise Invalid(f"captures {missing} are not in incident {incident_id}")
    secret = new_secret(GUEST_PREFIX)
    expires = datetime.now(UTC) + timedelta(days=data.expires_in_days or DEFAULT_DAYS)
    row = session.execute(
        text(
            "INSERT INTO guest_links (incident_id, label, digest, prefix, capture_ids, views, created_by, "
            "expires_at, bundle) "
            "VALUES (:inc, :label, :digest, :prefix, :captures, :views, :by, :expires, :bundle) "
            f"RETURNING {COLUMNS}"
        ),
        {
            "inc": incident_id,
            "label": data.label.strip(),
            "digest": digest_of(secret),
            "prefix": shown_prefix(secret, GUEST_PREFIX),
            "captures": sorted(set(data.capture_ids)) if data.capture_ids else None,
            "views": sorted(set(data.views)) if data.views else None,
            "bundle": data.bundle,
            "by": creator.user_id,
            "expires": expires,
        },
    ).one()
    link = _out(row)
    audit.record(
        session,
        creator,
        "share",
        "guest-link",
        link.id,
        incident_id,
        {
            "label": link.label,
            "expires_at": expires.isoformat(),
            "captures": link.capture_ids,
            "views": link.views,
            "bundle": link.bundle,
        },
    )
    return link, secret


def list_for(session: Session, incident_id: int) -> list[GuestLinkOut]:
    rows = session.execute(
        text(f"SELECT {COLUMNS} FROM guest_links WHERE incident_id = :inc ORDER BY id DESC"),
        {"inc": incident_id},
    )
    return [_out(r) for r in rows]


def revoke(session: Session, link_id: int, by: Principal) -> GuestLinkOut:
    row = session.execute(
        text(
            "UPDATE guest_links SET revoked_at = coalesce(revoked_at, now()) WHERE id = :id "
            f"RETURNING {COLUMNS}"
        ),
        {"id": link_id},
    ).first()
    if row is None:
        raise NotFound(f"guest link {link_id} does not exist")
    link = _out(row)
    # The sessions it opened stay, refused from now on with the reason (identify.py reads the link).
    audit.record(session, by, "revoke", "guest-link", link_id, link.incident_id, {"label": link.label})
    return link


def incident_of(session: Session, link_id: int) -> int:
    row = session.execute(text("SELECT incident_id FROM guest_links WHERE id = :id"), {"id": link_id}).first()
    if row is None:
        raise NotFound(f"guest link {link_id} does not exist")
    return int(row[0])


def redeem(session: Session, secret: str, address: str) -> NewSession:
    """Open a guest session from the link's secret; each opening is a use, in the audit log."""
    now = datetime.now(UTC)
    row = session.execute(
        text(f"SELECT {COLUMNS} FROM guest_links WHERE digest = :digest"), {"digest": digest_of(secret)}
    ).first()
    if row is None:
        raise NotFound("this guest link is not known here: check it was copied whole")
    link = _out(row)
    if link.revoked_at is not None:
        raise Unauthorized("this guest link was revoked: ask whoever sent it for a new one")
    if link.expires_at <= now:
        raise Unauthorized(f"this guest link expired on {link.expires_at:%Y-%m-%d}: ask for a new one")
    session.execute(
        text("UPDATE guest_links SET uses = uses + 1, last_used_at = :now WHERE id = :id"),
        {"id": link.id, "now": now},
    )
    principal = Principal(
        role=Role.GUEST,
        name=link.label or f"guest link #{link.id}",
        via="guest",
        incident_id=link.incident_id,
        capture_ids=tuple(link.capture_ids) if link.capture_ids is not None else None,
        views=tuple(link.views) if link.views is not None else None,
        credential_id=link.id,
        expires_at=link.expires_at,
        bundle=link.bundle,
    )
    started = start_session(session, principal, now)
    expires = min(started.expires_at, link.expires_at)
    session.execute(
        text("UPDATE user_sessions SET expires_at = :expires WHERE digest = :digest"),
        {"expires": expires, "digest": digest_of(started.secret)},
    )
    audit.record(
        session,
        principal,
        "guest-view",
        "guest-link",
        link.id,
        link.incident_id,
        {"label": link.label},
        address,
    )
    return NewSession(started.secret, expires, principal)


def view_allowed(principal: Principal, path: str) -> bool:
    """Whether a guest limited to some views may call this API path."""
    if principal.views is None:
        return True
    limited = [prefix for view in VIEWS for prefix in VIEW_ROUTES[view] if prefix in path]
    if not limited:
        return True  # the incident, its captures and annotations: every view needs them
    return any(prefix in path for view in principal.views for prefix in VIEW_ROUTES.get(view, ()))
