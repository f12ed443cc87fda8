"""Who a request speaks for: a person (by session or personal token), a guest link, or a collector."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from stallscope.auth.roles import GRANTS, Permission, Role

Via = Literal["session", "token", "guest", "collector"]


@dataclass(frozen=True, slots=True)
class Principal:
    role: Role
    name: str
    via: Via
    user_id: int | None = None
    incident_id: int | None = None
    """Guests and scoped collector tokens: the one incident they may reach."""
    capture_ids: tuple[int, ...] | None = None
    """Guests: the captures the link shows (None = all of the incident's)."""
    views: tuple[str, ...] | None = None
    """Guests: the views the link opens (None = every view)."""
    host: str | None = None
    """Collector tokens limited to one host."""
    credential_id: int | None = None
    """The session, token or guest link behind the request (for the audit log)."""
    expires_at: datetime | None = None
    """Guests: when the link stops working."""
    bundle: bool = False
    """Guests: the link lets its holder download the bundle of what it shows."""

    def may(self, permission: Permission) -> bool:
        if permission is Permission.EXPORT and self.role is Role.GUEST:
            return self.bundle
        return permission in GRANTS[self.role]

    @property
    def permissions(self) -> list[str]:
        """What this principal may do, for the front end to show or hide controls."""
        return sorted(p.value for p in Permission if self.may(p))

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN

    @property
    def is_guest(self) -> bool:
        return self.role is Role.GUEST

    def describe(self) -> str:
        if self.role is Role.GUEST:
            return f"guest link {self.name!r}"
        if self.role is Role.COLLECTOR:
            return f"collector token {self.name!r}"
        return f"{self.name} ({self.role})"
