"""Distinct stacks as arrays of frame ids, root first; samples point at them."""

from __future__ import annotations

from sqlalchemy import BigInteger, Integer, LargeBinary
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class Stack(Base):
    __tablename__ = "stacks"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    digest: Mapped[bytes] = mapped_column(unique=True, type_=LargeBinary)
    frame_ids: Mapped[list[int]] = mapped_column(ARRAY(Integer))
