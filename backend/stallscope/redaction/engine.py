"""Run the rules' patterns over a block of text.

Each rule contributes fragments: a pattern, a function from a match to what replaces it, and cheap
tests that must pass for the pattern to be worth running at all: substrings one of which must occur
(`hints`) and patterns that start with a literal (`gates`). Most fragments cannot match most blocks
of a capture (a perf script block has no `/home/`, no `=`, no `.com`), and then cost a fast search
instead of a slow scan.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Swap(NamedTuple):
    """Replace text[start:end] (absolute positions) with `pseudonym`, on behalf of `rule_id`."""

    rule_id: str
    start: int
    end: int
    pseudonym: str


Handler = Callable[[re.Match[str]], Swap | None]
"""None keeps the match as it is (a candidate the rule's own checks turned down)."""
Observer = Callable[[str, Swap], None]
"""Told of every replacement made: (the text it was made in, the swap)."""


@dataclass(frozen=True)
class Fragment:
    name: str
    """A group name, unique in the pass; the pattern's own groups start with it and `_`."""
    pattern: str
    handle: Handler
    hints: tuple[str, ...] = ()
    """One of these must occur in the block (in its lower-cased copy when `folded`); () = always."""
    folded: bool = False
    gates: tuple[re.Pattern[str], ...] = ()
    """Cheap patterns (each starting with a literal, which `re` finds by fast search) one of which
    must also match the block (lower-cased when `folded`): most blocks then skip the costly pattern."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hinted", Hints(self.hints) if self.hints else None)

    def may_match(self, text: str, lowered: str) -> bool:
        haystack = lowered if self.folded else text
        hinted: Hints | None = self.__dict__["_hinted"]
        if hinted is not None and not hinted.found_in(haystack):
            return False
        return not self.gates or any(gate.search(haystack) is not None for gate in self.gates)


class Hints:
    """Whether any of some words occurs in a text. A few are looked for one by one (each a fast
    substring search); many at once with one alternation, which scans the text once."""

    def __init__(self, words: Iterable[str], few: int = 8) -> None:
        self.words = tuple(sorted(set(words), key=len, reverse=True))
        self.pattern = any_of(self.words) if len(self.words) > few else None

    def found_in(self, text: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(text) is not None
        return any(word in text for word in self.words)


def any_of(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern finding any of `words`."""
    return re.compile("|".join(re.escape(word) for word in sorted(set(words), key=len, reverse=True)))


class Pass:
    """The fragments in order of priority, each its own scan of the block.

    One scan per fragment rather than one alternation of all: `re` finds a pattern that starts with
    a literal (or a set of first characters) by a fast search, and an alternation has no such start.
    A later fragment sees the earlier ones' pseudonyms, which no pattern matches."""

    def __init__(self, fragments: Sequence[Fragment]) -> None:
        self.fragments = tuple(fragments)
        self._compiled = [re.compile(fragment.pattern) for fragment in self.fragments]

    def run(self, text: str, lowered: str, observe: Observer) -> str:
        """`lowered` is the block before any pass: a hint found in it may have been replaced since,
        which only costs a scan."""
        for fragment, pattern in zip(self.fragments, self._compiled, strict=True):
            if fragment.may_match(text, lowered):
                text = substitute(pattern, fragment.handle, text, observe)
        return text


def substitute(pattern: re.Pattern[str], handle: Handler, text: str, observe: Observer) -> str:
    def replace(match: re.Match[str]) -> str:
        swap = handle(match)
        if swap is None:
            return match.group()
        observe(text, swap)
        start, end = match.span()
        return text[start : swap.start] + swap.pseudonym + text[swap.end : end]

    return pattern.sub(replace, text)
