"""Upload-only tokens for collectors; only a hash of each secret is stored. A token may be limited to
one incident or one host, and may expire."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, LargeBinary, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class UploadToken(Base):
    __tablename__ = "upload_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    digest: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    prefix: Mapped[str] = mapped_column(Text)
    """The first characters of the secret, so people can tell their tokens apart."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[int | None] = mapped_column(Integer, ForeignKey("users.id", ondelete="SET NULL"))
    incident_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("incidents.id", ondelete="CASCADE"))
    host: Mapped[str | None] = mapped_column(Text)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
