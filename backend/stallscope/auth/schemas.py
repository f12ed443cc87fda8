"""Request and response bodies for signing in, accounts and personal API tokens."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from stallscope.auth.roles import Permission
from stallscope.kit.answer_model import AnswerModel
from stallscope.kit.text import SingleLine

AccountRole = Literal["viewer", "responder", "admin"]
GuestView = Literal[
    "timeline", "flame", "diff", "threads", "heatmap", "metrics", "events", "snapshots", "findings"
]
"""The views a guest link may be limited to (`guest_links.VIEW_ROUTES` names the API routes of each)."""


class LoginIn(BaseModel):
    username: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=1000)


class UserOut(BaseModel):
    id: int
    name: str
    role: AccountRole
    has_password: bool
    sso: bool
    """Signed in through the identity provider at least once."""
    email: str | None
    created_at: datetime
    last_login_at: datetime | None
    disabled_at: datetime | None


class MeOut(AnswerModel):
    """Who the console is talking to: a person, or a guest link's holder."""

    name: str
    role: Literal["viewer", "responder", "admin", "guest"]
    via: Literal["session", "token", "guest"]
    user_id: int | None
    incident_id: int | None
    """Guests: the one incident the link opens."""
    capture_ids: list[int] | None
    views: list[GuestView] | None
    permissions: list[Permission]
    expires_at: datetime | None = None
    """Guests: when the link stops working."""


class AuditEntryOut(BaseModel):
    id: int
    at: datetime
    actor_kind: str
    """The actor's role when it acted, or "system" for the console itself."""
    actor_id: int | None
    actor_name: str
    action: str
    object_type: str
    object_id: str | None
    incident_id: int | None
    detail: dict[str, Any]
    """What changed, as the action records it."""
    address: str | None


class UserCreate(BaseModel):
    name: SingleLine = Field(min_length=1, max_length=64)
    role: AccountRole
    password: str | None = Field(default=None, min_length=10, max_length=1000)
    """None: the account signs in through the identity provider only."""
    email: SingleLine | None = Field(default=None, max_length=320)


class UserChange(BaseModel):
    role: AccountRole | None = None
    disabled: bool | None = None
    password: str | None = Field(default=None, min_length=10, max_length=1000)


class PasswordChange(BaseModel):
    current: str = Field(min_length=1, max_length=1000)
    new: str = Field(min_length=10, max_length=1000)


class ApiTokenCreate(BaseModel):
    name: SingleLine = Field(min_length=1, max_length=200)
    expires_in_days: float | None = Field(default=90, gt=0, le=3650)
    """None: never expires (not recommended)."""


class ApiTokenOut(BaseModel):
    id: int
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None


class ApiTokenCreated(ApiTokenOut):
    secret: str = Field(description="Shown once: set it as STALLSCOPE_TOKEN for the CLI and scripts")


class GuestLinkCreate(BaseModel):
    label: SingleLine = Field(default="", max_length=200, description="Who it is for, e.g. 'vendor support'")
    expires_in_days: float | None = Field(default=14, gt=0, le=365)
    capture_ids: list[int] | None = Field(default=None, description="Only these captures (all when absent)")
    views: list[str] | None = Field(default=None, description="Only these views (all when absent)")
    bundle: bool = Field(
        default=False, description="The guest may download the bundle of what the link shows"
    )


class GuestLinkOut(BaseModel):
    id: int
    incident_id: int
    label: str
    prefix: str
    capture_ids: list[int] | None
    views: list[GuestView] | None
    created_by: int | None
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None
    last_used_at: datetime | None
    uses: int
    bundle: bool


class GuestLinkCreated(GuestLinkOut):
    secret: str
    path: str = Field(description="Open this path on the console: /g/<secret> (shown once)")
