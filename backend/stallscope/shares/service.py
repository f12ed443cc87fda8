"""Short links: a view's URL stored under a short random id, so postmortems can quote it.

Only paths inside the console are accepted: a short link must never become an open redirect.
Sharing the same view twice gives the same link.
"""

from __future__ import annotations

import re
import secrets
from urllib.parse import parse_qs, urlsplit

from sqlalchemy.orm import Session

from stallscope.kit.errors import Invalid, NotFound
from stallscope.models import ShortLink
from stallscope.shares import repository

VIEW_PATHS = (
    "/timeline",
    "/flame",
    "/diff",
    "/threads",
    "/heatmap",
    "/incidents/",
    "/events",
    "/metrics",
    "/captures/",
)
ID_BYTES = 6
"""8 URL-safe characters: 2^48 ids, so a guess finds nothing."""


def validate_target(target: str) -> str:
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        raise Invalid("a short link must point inside the console: a path such as /flame?incident=4")
    if not parts.path.startswith(VIEW_PATHS):
        raise Invalid(f"{parts.path!r} is not a view that can be shared")
    return target


def create(session: Session, target: str) -> ShortLink:
    target = validate_target(target)
    existing = repository.by_target(session, target)
    if existing is not None:
        return existing
    while True:
        link_id = secrets.token_urlsafe(ID_BYTES)
        if repository.by_id(session, link_id) is None:
            return repository.add(session, ShortLink(id=link_id, target=target))


def resolve(session: Session, link_id: str) -> ShortLink:
    link = repository.by_id(session, link_id)
    if link is None:
        raise NotFound(f"short link {link_id!r} does not exist")
    return link


def target_scope(target: str) -> tuple[int | None, list[int]]:
    """The incident and the captures a shared view names (in its path or its query), so the link
    opens only for people who may see them."""
    parts = urlsplit(target)
    query = parse_qs(parts.query)
    incident: int | None = None
    captures: list[int] = []
    if match := re.match(r"^/incidents/(\d+)", parts.path):
        incident = int(match.group(1))
    if match := re.match(r"^/captures/(\d+)", parts.path):
        captures.append(int(match.group(1)))
    for value in query.get("incident", []):
        if value.strip().isdigit():
            incident = int(value)
    for key in ("captures", "a.captures", "b.captures"):
        for value in query.get(key, []):
            captures.extend(int(part) for part in re.findall(r"\d+", value))
    return incident, captures
