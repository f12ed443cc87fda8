"""Redact a block of lines, each distinct line once.

Captures repeat themselves: in a perf script file about one line in nine is new (frame lines come
back with every sample that passes through the same code), so a line seen before is answered from a
table, and only new lines are read for values to learn and go through the rules, joined into one
text so that each pass runs once per block, not once per line. A new line that changes is run again
alone to record what replaced what, so that the report counts every occurrence. The table is emptied
whenever a value is learnt (a line kept as it was may now hold a secret, and the block is redone so
its earlier lines get it too) and when it grows past its bound.
"""

from __future__ import annotations

from collections.abc import Callable

from stallscope.redaction.engine import Observer, Swap
from stallscope.redaction.state import State

MAX_LINES = 50_000
MAX_CACHED_LINE_CHARS = 4096
_MAX_ROUNDS = 4
"""Each round that learns something starts the block again; values are few, so this is a bound."""

Learn = Callable[[str, str], None]
Passes = Callable[[str, str, Observer], str]
Entry = tuple[str, tuple[tuple[str, str], ...]]
"""(the redacted line, (rule id, pseudonym) of each replacement in it)."""


def _ignore(text: str, swap: Swap) -> None:
    return None


class LineCache:
    def __init__(self, state: State, learn_sections: Learn, learn_lines: Learn, passes: Passes) -> None:
        self.state = state
        self.learn_sections = learn_sections
        self.learn_lines = learn_lines
        self.passes = passes
        self.lines: dict[str, Entry] = {}
        self.version = state.version

    def redact(self, block: str) -> str:
        self.learn_sections(block, block.lower())
        lines = block.split("\n")
        for _ in range(_MAX_ROUNDS):
            self._check_version()
            entries = self._entries(lines)
            if entries is not None:
                break
        else:
            entries = [self._alone(line) for line in lines]
        count = self.state.count
        for _redacted, swaps in entries:
            for rule_id, pseudonym in swaps:
                count(rule_id, pseudonym)
        return "\n".join([redacted for redacted, _swaps in entries])

    def _check_version(self) -> None:
        if self.state.version != self.version or len(self.lines) > MAX_LINES:
            self.lines.clear()
            self.version = self.state.version

    def _entries(self, lines: list[str]) -> list[Entry] | None:
        """Each line's entry; None when a value was learnt on the way (start the block again)."""
        table = self.lines
        new = [line for line in dict.fromkeys(lines) if line not in table]
        if not new:
            return [table[line] for line in lines]
        joined = "\n".join(new)
        lowered = joined.lower()
        self.learn_lines(joined, lowered)
        if self.state.version != self.version:
            return None
        redacted = self.passes(joined, lowered, _ignore).split("\n")
        if self.state.version != self.version:
            return None
        alone = len(redacted) != len(new)  # a user's pattern matched across lines: line by line
        found: dict[str, Entry] = {}
        for index, line in enumerate(new):
            entry: Entry = self._alone(line) if alone or redacted[index] != line else (line, ())
            found[line] = entry
            if len(line) <= MAX_CACHED_LINE_CHARS:
                table[line] = entry
        return [found.get(line) or table[line] for line in lines]

    def _alone(self, line: str) -> Entry:
        swaps: list[tuple[str, str]] = []

        def record(text: str, swap: Swap) -> None:
            swaps.append((swap.rule_id, swap.pseudonym))

        return self.passes(line, line.lower(), record), tuple(swaps)
