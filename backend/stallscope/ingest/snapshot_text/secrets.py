"""Mask secrets in what a text snapshot keeps: the collector masks them on the host, text arrives raw.

The patterns are the collector's (`redact_value`, `redact_argv`), so a command line reads the same
whichever way it was captured; a test holds them equal. Free text adds the `--password VALUE` form,
which the collector handles per argument.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

REDACTED = "<redacted>"
_SECRET_WORD = r"[\w.-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|private[_-]?key|credential)[\w.-]*"
_SECRET_ASSIGNMENT = re.compile(r"(?i)(" + _SECRET_WORD + r"[=:])(\S+)")
_SECRET_FLAG = re.compile(r"(?i)^-{1,2}" + _SECRET_WORD + r"$")
_URL_USERINFO = re.compile(r"(\w+://[^/\s:@]+:)([^@\s/]+)(@)")
_AUTH_HEADER = re.compile(r"(?i)(authorization:\s*(?:bearer|basic|token)?\s*)([^\s'\"]+)")
_FLAG_THEN_VALUE = re.compile(r"(?i)((?<!\S)-{1,2}" + _SECRET_WORD + r"[ \t]+)([^\s-]\S*)")
_HINTS = ("pass", "secret", "token", "key", "credential", "://", "authorization")
"""Words every secret pattern below contains one of (in lower case)."""
CACHED_TEXT_CHARS = 16 << 10
"""Free texts up to this size are masked once: every take of a file prints the same static files."""


def _maybe_secret(text: str) -> bool:
    """A cheap test first: most text holds none of these words, and then no substitution runs.
    Substring tests on the lowered text: a case-insensitive regular expression scans ~50 times slower."""
    lowered = text.lower()
    return any(hint in lowered for hint in _HINTS)


def redact_value(text: str) -> str:
    """Mask `password=…`-style assignments, `Authorization:` values and URL passwords."""
    if not _maybe_secret(text):
        return text
    text = _SECRET_ASSIGNMENT.sub(lambda m: m.group(1) + REDACTED, text)
    text = _AUTH_HEADER.sub(lambda m: m.group(1) + REDACTED, text)
    return _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + m.group(3), text)


def redact_argv(argv: Iterable[str]) -> list[str]:
    """A command line with secrets masked: `--password=x`, `--token x`, `postgres://u:pw@h`."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
        elif _SECRET_FLAG.match(arg):
            hide_next = True
            out.append(arg)
        else:
            out.append(redact_value(arg))
    return out


def redact_text(text: str) -> str:
    """Free text (a `ps` listing, a config file): assignments, URLs, headers and `--flag value`."""
    return _redact_text_cached(text) if len(text) <= CACHED_TEXT_CHARS else _redact_text(text)


def _redact_text(text: str) -> str:
    if not _maybe_secret(text):
        return text
    text = _FLAG_THEN_VALUE.sub(lambda m: m.group(1) + REDACTED, text)
    return redact_value(text)


_redact_text_cached = functools.lru_cache(maxsize=256)(_redact_text)
