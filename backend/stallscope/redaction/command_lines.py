"""Command lines, where every word's role is known: the program, flags, and their values.

Only text known to be a command line comes here (the collector's command, a process's argv), since
in free text nothing says which word is an argument. Kept: the program (and the one after a lone
`--`, as in `perf record -- sleep 20`), flags (`-F`, `--threads`), a first plain word that is a
subcommand (`perf record`, `kubectl get`), numbers with an optional unit (`999`, `4g`, `1.5s`), and
event lists after `-e`/`--event` (`sched:sched_switch`): the vendor needs to know what was recorded.
Every other argument becomes `arg-N`; the value of a secret-named flag `secret-N`. What is kept still
goes through the other rules (a program under `/home/alice`, an address in `--bind=10.0.0.7`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from stallscope.redaction.engine import Swap
from stallscope.redaction.policy import ARGUMENTS
from stallscope.redaction.state import State

_SECRET_FLAG = re.compile(
    r"(?i)^-{1,2}[\w.-]*?(?:pass(?:word|wd|phrase)?|secret|token|api[_-]?key|private[_-]?key|credential)"
    r"[\w.-]*$"
)
_NUMBER = re.compile(r"^[+-]?(?:0x[0-9a-fA-F]+|\d+(?:[.:,/]\d+)*[A-Za-z%]{0,3})$")
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
_EVENT_FLAGS = frozenset({"-e", "--event"})
_EVENTS = re.compile(r"^[\w.:*,/=-]+$")
_FLAG = re.compile(r"^-{1,2}[A-Za-z]")


class CommandLines:
    def __init__(
        self, state: State, redact_text: Callable[[str], str], count: Callable[[Swap], None]
    ) -> None:
        self.state = state
        self.redact_text = redact_text
        self.count = count

    def argv(self, args: Sequence[str]) -> list[str]:
        out: list[str] = []
        program_next, subcommand_allowed, previous = True, True, ""
        for arg in args:
            if program_next:
                out.append(self.redact_text(arg))
                program_next, subcommand_allowed = False, True
            elif arg == "--":
                out.append(arg)
                program_next = True
            elif _FLAG.match(arg):
                name, equals, value = arg.partition("=")
                if equals:
                    out.append(name + "=" + self._value(name, value))
                else:
                    out.append(self.redact_text(arg))
            else:
                kept = (
                    _SUBCOMMAND.match(arg) is not None and subcommand_allowed and not previous.startswith("-")
                )
                out.append(self.redact_text(arg) if kept else self._value(previous, arg))
                subcommand_allowed = False
            previous = arg
        return out

    def line(self, text: str) -> str:
        """A command line as one string: words split at white space, the spacing kept."""
        parts = re.split(r"(\s+)", text)
        words = self.argv([part for part in parts[0::2] if part])
        iterator = iter(words)
        return "".join(
            next(iterator) if index % 2 == 0 and part else part for index, part in enumerate(parts)
        )

    def _value(self, flag: str, value: str) -> str:
        if not value:
            return value
        if _SECRET_FLAG.match(flag):
            return self._swap(self.state.pseudonyms.of("secret", value))
        if _NUMBER.match(value) or (flag in _EVENT_FLAGS and _EVENTS.match(value)):
            return self.redact_text(value)
        known = self.state.literals.lookup(value)
        return self._swap(known.pseudonym if known else self.state.pseudonyms.of("arg", value))

    def _swap(self, pseudonym: str) -> str:
        self.count(Swap(ARGUMENTS, 0, 0, pseudonym))
        return pseudonym
