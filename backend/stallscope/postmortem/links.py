"""Short links for the views a postmortem quotes, written as absolute URLs.

A short link is a write (a row, and an audit entry, as `POST /api/shares` makes them), so only a
principal who may share (responders and admins) makes new ones. For anyone else (the bundle built
for a guest) a link already made for the same view is reused, and a view never shared is written as
its full console URL.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from stallscope.auth import audit
from stallscope.auth.principal import Principal
from stallscope.auth.roles import Permission
from stallscope.kit.errors import Invalid
from stallscope.shares import repository as shares_repository
from stallscope.shares import service as shares_service


class ShortLinks:
    """Short links of one incident's views, each made once however often a report quotes it."""

    def __init__(self, session: Session, principal: Principal, incident_id: int, base_url: str) -> None:
        self.session = session
        self.principal = principal
        self.incident_id = incident_id
        self.base_url = base_url.rstrip("/")
        self._made: dict[str, str] = {}

    def url(self, target: str) -> str:
        """The absolute URL a reader follows to `target` (a view's path and query)."""
        if target not in self._made:
            self._made[target] = self.base_url + self._path(target)
        return self._made[target]

    def _path(self, target: str) -> str:
        try:
            shares_service.validate_target(target)
        except Invalid:
            return target  # not a shareable view (no such finding link today): quoted as it is
        existing = shares_repository.by_target(self.session, target)
        if existing is not None:
            return f"/s/{existing.id}"
        if not self.principal.may(Permission.RESPOND):
            return target
        link = shares_service.create(self.session, target)
        detail = {"target": link.target, "via": "postmortem"}
        audit.record(self.session, self.principal, "share", "short-link", link.id, self.incident_id, detail)
        return f"/s/{link.id}"
