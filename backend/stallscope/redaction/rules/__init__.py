"""The built-in redaction rules, one module each: what the rule finds, why it matters, how it learns.

A rule is built on the redactor's `State`. `learn` reads a block before it is redacted, to add the
values only context reveals (the host in `uname -a`, the user in `uid=1000(alice)`), so that their
bare occurrences elsewhere are replaced too; `fragments` are its patterns for the engine's pass.
Known literal values of every rule are matched by `literal.py`.
"""

from __future__ import annotations

from typing import Protocol

from stallscope.redaction.engine import Fragment


class Rule(Protocol):
    id: str
    label: str

    def learn(self, text: str, lowered: str) -> None: ...

    def fragments(self) -> list[Fragment]: ...
