"""Known values, whichever rule learnt them, matched as whole words (module `literals`).

Why one place for all: a host, a user and a container name are each a literal, and a block is
scanned for all of them at once, by a trie whose first characters `re` can skip to. Host names match
as learnt, in lower case, in upper case and capitalised (a case-blind pattern is several times
slower and DNS names are written in one of these). A short or common value (`vm`, `db`) matches only
where it stands alone, never as a path component or a part of a dotted or hyphenated name; hashed
symbols match as whole symbols (not inside `ns::name` or `name.cold`). What may come before a value
is checked on the match, so that the pattern starts with the trie and stays fast.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from stallscope.redaction.engine import Fragment, Handler, Swap
from stallscope.redaction.literals import GENERIC_AFTER, SPECIFIC_AFTER, is_generic, trie_pattern
from stallscope.redaction.policy import SYMBOLS
from stallscope.redaction.state import Literal, State

SYMBOL_AFTER = r"(?![\w$:])"
MAX_HINTS = 8
"""Beyond this many values, looking for each in a block costs more than scanning for them."""


def _specific_before(char: str) -> bool:
    return char.isalnum() or char == "_"


def _generic_before(char: str) -> bool:
    return char.isalnum() or char in "_./-"


def _symbol_before(char: str) -> bool:
    return char.isalnum() or char in "_$:."


def literal_fragments(state: State) -> list[Fragment]:
    values: dict[str, Literal] = {}
    for key, literal in state.literals.folded.items():
        for variant in (key, key.upper(), key.capitalize()):
            values.setdefault(variant, literal)
    values.update(state.literals.exact)
    classes: dict[str, dict[str, Literal]] = {"lit_s": {}, "lit_g": {}, "lit_sym": {}}
    for value, literal in values.items():
        if literal.rule_id == SYMBOLS:
            classes["lit_sym"][value] = literal
        else:
            classes["lit_g" if is_generic(value) else "lit_s"][value] = literal
    fragments: list[Fragment] = []
    for name, after, before in (
        ("lit_s", SPECIFIC_AFTER, _specific_before),
        ("lit_g", GENERIC_AFTER, _generic_before),
        ("lit_sym", SYMBOL_AFTER, _symbol_before),
    ):
        table = classes[name]
        if table:
            hints = tuple(table) if len(table) <= MAX_HINTS else ()
            pattern = f"(?:{trie_pattern(table)}){after}"
            fragments.append(Fragment(name, pattern, _handler(table, before), hints))
    return fragments


def _handler(table: dict[str, Literal], glued: Callable[[str], bool]) -> Handler:
    def handle(match: re.Match[str]) -> Swap | None:
        start = match.start()
        if start and glued(match.string[start - 1]):
            return None  # part of a longer word
        literal = table.get(match.group())
        return None if literal is None else Swap(literal.rule_id, start, match.end(), literal.pseudonym)

    return handle
