"""HTTP routes (placeholder until the feature lands)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["shares"])
