"""Masking secrets in what leaves the host: command lines, environment variables, commands run."""

from __future__ import annotations

import re
from typing import Sequence

ENV_OF_INTEREST = re.compile(
    r"^(LD_(BIND_NOW|BIND_NOT|PRELOAD|LIBRARY_PATH|AUDIT|DEBUG|DYNAMIC_WEAK)|MALLOC_\w*|GLIBC_TUNABLES"
    r"|TCMALLOC_\w*|JEMALLOC_\w*|MIMALLOC_\w*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS"
    r"|GOGC|GOMAXPROCS|GOMEMLIMIT|GODEBUG|PYTHONMALLOC|PYTHONPERFSUPPORT|PYTHONGC\w*|NODE_OPTIONS"
    r"|UV_THREADPOOL_SIZE|OMP_\w*|MKL_NUM_THREADS|OPENBLAS_NUM_THREADS|TZ)$"
)
_SECRET_WORD = r"[\w.-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|private[_-]?key|credential)[\w.-]*"
_SECRET_ASSIGNMENT = re.compile(r"(?i)(" + _SECRET_WORD + r"[=:])(\S+)")
_SECRET_FLAG = re.compile(r"(?i)^-{1,2}" + _SECRET_WORD + r"$")
_URL_USERINFO = re.compile(r"(\w+://[^/\s:@]+:)([^@\s/]+)(@)")
_AUTH_HEADER = re.compile(r"(?i)(authorization:\s*(?:bearer|basic|token)?\s*)([^\s'\"]+)")
REDACTED = "<redacted>"


def redact_value(text: str) -> str:
    """Mask `password=…`-style assignments and URL passwords inside one string."""
    text = _SECRET_ASSIGNMENT.sub(lambda m: m.group(1) + REDACTED, text)
    text = _AUTH_HEADER.sub(lambda m: m.group(1) + REDACTED, text)
    return _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + m.group(3), text)


def redact_argv(argv: Sequence[str]) -> list[str]:
    """A command line with secrets masked: `--password=x`, `--token x`, `postgres://u:pw@h`."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        if _SECRET_FLAG.match(arg):
            hide_next = True
            out.append(arg)
            continue
        out.append(redact_value(arg))
    return out


def environment_of_interest(environ: bytes) -> dict[str, str]:
    """Only variables that change how a process allocates, links or schedules; never the rest."""
    out: dict[str, str] = {}
    for entry in environ.split(b"\0"):
        name, sep, value = entry.partition(b"=")
        if not sep:
            continue
        key = name.decode("utf-8", "replace")
        if ENV_OF_INTEREST.match(key):
            out[key] = redact_value(value.decode("utf-8", "replace"))[:4096]
    return out
