"""Random secrets handed out once (sessions, tokens, guest links) and kept only as SHA-256 digests.

A digest is enough for secrets this long (256 bits of randomness): nobody brute-forces them, so a
slow hash buys nothing, and a lookup by digest is one index probe per request.
"""

from __future__ import annotations

import hashlib
import secrets

SHOWN_PREFIX_CHARS = 8


def new_secret(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def digest_of(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def shown_prefix(secret: str, prefix: str) -> str:
    """The first characters, so people can tell their tokens apart in lists."""
    return secret[: len(prefix) + SHOWN_PREFIX_CHARS]
