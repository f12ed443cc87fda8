"""Distinct frame names, stored once for every capture that mentions them."""

from __future__ import annotations

from sqlalchemy import LargeBinary, Text
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class Frame(Base):
    __tablename__ = "frames"

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    """Hash of kind and name: long C++/Java names would overflow a btree index on the text."""
    name: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(Text)
