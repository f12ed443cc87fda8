"""Environment values and secrets in arguments, keeping the names: `API_KEY=env-1`,
`--password=secret-1`, `postgres://app:secret-2@db`, `Authorization: Bearer secret-3`.

Why: an environment holds what a service is configured with, tokens included, and snapshots, `env`
output and `/proc/PID/environ` print it; a command line carries passwords as flags. The names stay:
they tell the vendor what was set. Values of the variables that change how a process allocates,
links or schedules (`MALLOC_ARENA_MAX`, `LD_BIND_NOW`, `GOMAXPROCS`…, the snapshot's own list) are
kept, since they are often the finding; other rules still apply inside them. `USER=`/`LOGNAME=` take
the user's pseudonym and `HOSTNAME=` the host's, so one name reads the same everywhere.

Secrets are found in two ways: by the name of what is set (`*password*`, `*secret*`, `*token*`,
`api_key`, `private_key`, `credential`, in any case, as `name=value`, `name: value` or
`--name value`), and by form (URL passwords, `Authorization:` headers). That pass runs before the
others, only on blocks that contain one of those words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from stallscope.ingest.snapshot.model import ENV_OF_INTEREST
from stallscope.redaction.engine import Fragment, Hints, Swap
from stallscope.redaction.policy import ARGUMENTS
from stallscope.redaction.state import State

ID = ARGUMENTS
LABEL = "Environment values, secrets and arguments"

_ENV = (
    r"(?<![\w.$/-])(?P<env_name>[A-Z][A-Z0-9_]*[A-Z0-9])="
    r"(?P<env_value>\"[^\"\n]*\"|'[^'\n]*'|(?!secret-\d)[^\s\"';,)\]}]+)"
)
_ENV_GATE = re.compile(r"=(?<=[A-Z0-9]=)")
_USER_VARIABLES = frozenset({"USER", "LOGNAME", "SUDO_USER", "USERNAME"})
_HOST_VARIABLES = frozenset({"HOSTNAME", "HOST"})

_SECRET_WORD = (
    r"[\w.-]*?(?:pass(?:word|wd|phrase)?(?![a-z])|secret|token|api[_-]?key|private[_-]?key|credential)"
    r"[\w.-]*"
)
SECRET_PATTERN = re.compile(
    r"(?i)(?<![\w.-])-{0,2}" + _SECRET_WORD + r"[\"']?[ \t]*(?:=|:(?=[ \t\"']))[ \t]*[\"']?"
    r"(?P<assigned>(?!secret-\d)[^\s\"',;]+)"
    r"|(?<!\S)-{1,2}" + _SECRET_WORD + r"[ \t]+(?P<flagged>(?!secret-\d)[^\s-]\S*)"
    r"|\b[a-z][\w+.-]*://[^/\s:@]+:(?P<url>[^@\s/]+)(?=@)"
    r"|authorization:[ \t]*(?:(?:bearer|basic|token|negotiate)[ \t]+)?(?P<header>[^\s'\"]+)"
)
SECRET_HINTS = Hints(
    [
        "pass",
        "secret",
        "token",
        "api_key",
        "apikey",
        "api-key",
        "private_key",
        "private-key",
        "privatekey",
        "credential",
        "://",
        "authorization",
    ],
    few=12,
)
"""Lower-case words one of which every secret pattern holds: without them the pass is skipped."""


def keeps_value(name: str) -> bool:
    """Whether an environment variable's value is evidence rather than configuration to hide."""
    return ENV_OF_INTEREST.match(name) is not None


class ArgumentRule:
    id = ID
    label = LABEL

    def __init__(self, state: State, redact_inside: Callable[[str], str]) -> None:
        self.state = state
        self.redact_inside = redact_inside

    def learn(self, text: str, lowered: str) -> None:
        return None

    def fragments(self) -> list[Fragment]:
        return [Fragment("env", _ENV, self._env, gates=(_ENV_GATE,))]

    def env_value(self, name: str, value: str) -> str:
        """The pseudonym or kept value of environment variable `name`."""
        if keeps_value(name):
            return self.redact_inside(value)
        if name in _USER_VARIABLES:
            return self.state.user(value) or value
        if name in _HOST_VARIABLES:
            return self.state.host(value) or value
        known = self.state.literals.lookup(value)
        return known.pseudonym if known else self.state.pseudonyms.of("env", value)

    def _env(self, match: re.Match[str]) -> Swap | None:
        name, value = match.group("env_name"), match.group("env_value")
        start, end = match.span("env_value")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            start, end, value = start + 1, end - 1, value[1:-1]
        if not value:
            return None
        pseudonym = self.env_value(name, value)
        return None if pseudonym == value else Swap(ID, start, end, pseudonym)

    def secret(self, match: re.Match[str]) -> Swap | None:
        group = match.lastgroup or ""
        start, end = match.span(group)
        return Swap(ID, start, end, self.state.pseudonyms.of("secret", match.group(group)))
