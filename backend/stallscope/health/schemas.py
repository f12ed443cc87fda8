"""`/api/health`'s body, the same whether it answers 200 or 503."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class CheckOut(BaseModel):
    ok: bool
    detail: str
    """What was seen: "answering", "unreachable: …", how many parse messages wait…"""


class ChecksOut(BaseModel):
    database: CheckOut
    broker: CheckOut
    worker: CheckOut
    """A parse worker reported in lately (heartbeats)."""


class HealthOut(BaseModel):
    status: Literal["ok", "unavailable"]
    version: str
    checks: ChecksOut
