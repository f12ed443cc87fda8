"""Consistent stand-ins: the same value always gets the same pseudonym within one redactor.

A pseudonym is `<kind>-<n>`, numbered per kind in order of first sight (`host-1`, `user-2`, `ip-3`):
lower-case letters, digits and one hyphen, so it is safe in every format it lands in (a perf script
comm field, CSV, folded stacks where `;` and space are separators, JSON, HTML). Symbols are hashed
instead (`sym-<10 hex>`), keyed with a salt drawn per redactor, so the same symbol reads the same
throughout one bundle but cannot be found by hashing a dictionary of names across bundles.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CASE_FOLDED_KINDS = frozenset({"host", "domain"})
"""DNS names compare without case: `DB7` and `db7` are one host."""


class Pseudonyms:
    def __init__(self, salt: bytes | None = None) -> None:
        self._numbers: dict[str, dict[str, int]] = {}
        self._salt = salt if salt is not None else secrets.token_bytes(16)

    def of(self, kind: str, value: str) -> str:
        """The pseudonym of `value` as a `kind` (`host`, `user`, `ip`…), issued on first sight."""
        key = value.lower() if kind in CASE_FOLDED_KINDS else value
        numbers = self._numbers.setdefault(kind, {})
        number = numbers.get(key)
        if number is None:
            number = numbers[key] = len(numbers) + 1
        return f"{kind}-{number}"

    def symbol(self, name: str) -> str:
        digest = hmac.new(self._salt, name.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()
        return f"sym-{digest[:10]}"

    def issued(self, kind: str) -> int:
        return len(self._numbers.get(kind, {}))
