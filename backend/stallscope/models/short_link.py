"""Short links (`/s/<id>`) to a view's full URL, kept in the database so they survive restarts."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class ShortLink(Base):
    __tablename__ = "short_links"

    id: Mapped[str] = mapped_column(Text, primary_key=True)
    target: Mapped[str] = mapped_column(Text)
    """Path and query of the view inside the console, e.g. `/flame?v=3&incident=4&...`."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
