"""Path components under configured prefixes: `/home/alice/build/app` → `/home/user-1/build/app`.

Why: paths carry names: the user in a home directory (perf prints it as the DSO of every frame of a
binary built there), a customer or site in `/srv/<site>`, a volume label in `/media/<user>/<label>`.
By default only the first component after a prefix is replaced (`path_depth = 1`): what follows is
usually a build tree and a binary name the vendor needs to read the frames; raise `path_depth` to hide
project names too. Under `/home/` and `/Users/` the component is a user (`user-N`, the same pseudonym
the users rule gives that name anywhere else); elsewhere it is `dir-N`. Hidden names (`.cache`,
`.rustup`) are tool folders, not names, and are kept.
"""

from __future__ import annotations

import re

from stallscope.redaction.engine import Fragment, Swap
from stallscope.redaction.policy import PATHS
from stallscope.redaction.rules.users import HOME_PREFIXES
from stallscope.redaction.state import State

ID = PATHS
LABEL = "Names in paths"

COMPONENT = r"[^/\s;:()\[\]{}'\"`,=<>|\\]+"
"""What a path component can hold in text: stops at the separators of the formats paths appear in."""


class PathRule:
    id = ID
    label = LABEL

    def __init__(self, state: State, prefixes: tuple[str, ...], depth: int) -> None:
        self.state = state
        self.prefixes = prefixes
        self.depth = depth
        alternatives = "|".join(re.escape(prefix) for prefix in sorted(prefixes, key=len, reverse=True))
        self.pattern = (
            rf"(?P<path_prefix>{alternatives})(?!\.)(?P<path_names>{COMPONENT}(?:/(?!\.){COMPONENT})"
            rf"{{0,{depth - 1}}})"
        )

    def learn(self, text: str, lowered: str) -> None:
        return None

    def fragments(self) -> list[Fragment]:
        if not self.prefixes:
            return []
        return [Fragment("path", self.pattern, self._path, self.prefixes)]

    def _path(self, match: re.Match[str]) -> Swap | None:
        prefix = match.group("path_prefix")
        names = match.group("path_names").split("/")
        first = self.state.user(names[0]) if prefix in HOME_PREFIXES else None
        pseudonyms = [first or self.state.pseudonyms.of("dir", names[0])]
        pseudonyms += [self.state.pseudonyms.of("dir", name) for name in names[1:]]
        start, end = match.span("path_names")
        return Swap(ID, start, end, "/".join(pseudonyms))
