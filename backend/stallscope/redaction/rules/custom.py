"""The user's own patterns (`custom:<name>`): what only they know to be secret, such as customer
codes or ticket ids. Each runs as its own pass, before the built-in rules, so it sees the text as
captured; every match becomes `<name>-N` (only group 1 when the pattern has groups, so that
`customer=(\\w+)` keeps `customer=`).
"""

from __future__ import annotations

import re

from stallscope.redaction.engine import Observer, Swap
from stallscope.redaction.policy import CustomRule
from stallscope.redaction.state import State


class CustomPass:
    def __init__(self, rule: CustomRule, state: State) -> None:
        self.rule = rule
        self.state = state
        self.compiled = re.compile(rule.pattern)
        self.kind = rule.name.lower()

    def run(self, text: str, observe: Observer) -> str:
        def substitute(match: re.Match[str]) -> str:
            group = 1 if self.compiled.groups and match.group(1) is not None else 0
            start, end = match.span(group)
            if start == end:
                return match.group()
            swap = Swap(
                self.rule.rule_id, start, end, self.state.pseudonyms.of(self.kind, match.group(group))
            )
            observe(text, swap)
            whole_start, whole_end = match.span()
            return text[whole_start:start] + swap.pseudonym + text[end:whole_end]

        return self.compiled.sub(substitute, text)
