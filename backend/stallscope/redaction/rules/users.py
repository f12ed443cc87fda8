"""User names: the account names a capture prints, wherever they are printed.

Why: a user name is a person (`alice`, `jsmith`). It shows in home directories (`/home/alice/build/app`
as a perf DSO path, handled with the paths rule), `id` output (`uid=1000(alice)`), `/etc/passwd`-like
lines, `USER=`/`LOGNAME=`/`SUDO_USER=`, `ps` listings and file owners. Accounts every system has
(`root`, `nobody`, service accounts below uid 1000) are no one's name and are kept.
"""

from __future__ import annotations

import re

from stallscope.redaction.engine import Fragment
from stallscope.redaction.policy import USERS
from stallscope.redaction.state import State

ID = USERS
LABEL = "User names"

FIRST_PERSON_UID = 1000
"""Linux distributions number people's accounts from here; below are system accounts."""
NO_ONE_UID = 65534
HOME_PREFIXES = ("/home/", "/Users/")
"""Where the next path component is a user name."""

_NAME = r"[A-Za-z_][\w.-]{0,31}"
_HOME = re.compile(r"/(?:home|Users)/(" + _NAME + r")(?=/|\s|$|[)'\",:;])")
_ID = re.compile(r"id=(?<=[ug]id=)(\d+)\(([^()\s]+)\)")  # id(1): uid=1000(alice) gid=1000(alice)
_ENV = (  # USER= also finds SUDO_USER=
    re.compile(r"USER(?:NAME)?=(" + _NAME + ")"),
    re.compile(r"LOGNAME=(" + _NAME + ")"),
)
_PASSWD_GATE = re.compile(r":\d+:\d+:")
_PASSWD = re.compile(r"(?m)^(" + _NAME + r"):[^:\n]*:(\d+):\d+:[^:\n]*:/[^:\n]*:[^:\n]*$")


def _person(uid: str) -> bool:
    return FIRST_PERSON_UID <= int(uid) != NO_ONE_UID


class UserRule:
    id = ID
    label = LABEL

    def __init__(self, state: State) -> None:
        self.state = state

    def learn(self, text: str, lowered: str) -> None:
        names = _HOME.findall(text) + _ENV[0].findall(text) + _ENV[1].findall(text)
        names += [name for uid, name in _ID.findall(text) if _person(uid)]
        if _PASSWD_GATE.search(text):
            names += [name for name, uid in _PASSWD.findall(text) if _person(uid)]
        for name in names:
            self.state.user(name)

    def fragments(self) -> list[Fragment]:
        return []  # users are replaced as learnt literals (and under home prefixes by the paths rule)
