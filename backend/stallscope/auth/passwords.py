"""Password hashing with argon2id (argon2-cffi's defaults, RFC 9106's second recommendation)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from stallscope.kit.errors import Invalid

MIN_LENGTH = 10
_hasher = PasswordHasher()

DUMMY_HASH = _hasher.hash("an account that does not exist")
"""Verified against when the name is unknown, so a login takes as long whether or not the name exists."""


def check_strength(password: str) -> None:
    if len(password) < MIN_LENGTH:
        raise Invalid(f"a password needs at least {MIN_LENGTH} characters")


def hash_password(password: str) -> str:
    check_strength(password)
    return _hasher.hash(password)


def verify(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False
