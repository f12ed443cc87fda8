"""Where the built front end is: configured, or `frontend/dist` beside the back end."""

from __future__ import annotations

from pathlib import Path

from stallscope.config import get_settings


def frontend_dist() -> Path:
    configured = get_settings().frontend_dist
    return configured or Path(__file__).resolve().parents[2] / "frontend" / "dist"
