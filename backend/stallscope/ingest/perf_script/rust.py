"""Finish Rust legacy-mangled names that perf only half demangles.

perf turns `_ZN...E` into `a..b$LT$T$GT$::c::h0123456789abcdef` for legacy Rust symbols, leaving the
`..`/`$XX$` escapes and the hash in place. inferno finishes the job, so its folded output (our reference)
reads `a::b<T>::c`; we apply the same rule, to names that end in a legacy hash only.
"""

from __future__ import annotations

import re

_HASH_CHARS = 17  # "h" followed by 16 hex digits
_LEGACY_HASH = re.compile(r"h[0-9a-fA-F]{16}\Z")

_ESCAPES: dict[str, str] = {
    "$SP$": "@",
    "$BP$": "*",
    "$RF$": "&",
    "$LT$": "<",
    "$GT$": ">",
    "$LP$": "(",
    "$RP$": ")",
    "$C$": ",",
    "$u7e$": "~",
    "$u20$": " ",
    "$u27$": "'",
    "$u3d$": "=",
    "$u5b$": "[",
    "$u5d$": "]",
    "$u7b$": "{",
    "$u7d$": "}",
    "$u3b$": ";",
    "$u2b$": "+",
    "$u21$": "!",
    "$u22$": '"',
}
_ESCAPE = re.compile("|".join(re.escape(e) for e in _ESCAPES))
_PLAIN_RUN = re.compile(r"[^$.]+")


def _has_legacy_hash(symbol: str) -> bool:
    return _LEGACY_HASH.search(symbol, max(0, len(symbol) - _HASH_CHARS)) is not None


def fix_rust_legacy(symbol: str) -> str:
    """`std..fs..File$u20$x::open::h0123456789abcdef` -> `std::fs::File x::open`; others unchanged."""
    if not _has_legacy_hash(symbol):
        return symbol
    rest = symbol[:-_HASH_CHARS]
    rest = rest.removesuffix("::")
    if rest.startswith("_$"):
        rest = rest[1:]
    out: list[str] = []
    i, end = 0, len(rest)
    while i < end:
        ch = rest[i]
        if ch == ".":
            if rest.startswith(".", i + 1):
                out.append("::")
                i += 2
            else:
                out.append(".")
                i += 1
        elif ch == "$":
            escape = _ESCAPE.match(rest, i)
            if escape is None:
                # An escape we do not know: keep the remainder verbatim rather than guess.
                out.append(rest[i:])
                break
            out.append(_ESCAPES[escape.group()])
            i = escape.end()
        else:
            run = _PLAIN_RUN.match(rest, i)
            assert run is not None  # rest[i] is neither "$" nor "."
            out.append(run.group())
            i = run.end()
    return "".join(out)
