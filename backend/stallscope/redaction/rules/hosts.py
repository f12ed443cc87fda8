"""Host names: the machine's own (however it is written) and other machines' fully-qualified names.

Why: a host name says whose machine it is (`pay-db7.acme.internal`), and it is printed everywhere:
sysstat's first line (`Linux 6.1.0 (db7) 11/25/2026`), `uname -a` (`Linux db7 6.1.0 #1 SMP`),
kernel and syslog messages (`Nov 25 10:00:01 db7 kernel: ...`, `Hostname set to <db7>`), snapshot
sections (`/proc/sys/kernel/hostname`, `kernel.hostname = db7`), `HOSTNAME=` and CSV labels.

A host is `host-N`; an FQDN is `host-N.domain-M` and its short name alone `host-N`, so both spellings
of one machine read as one. FQDNs of other machines are found by their top-level domain (a fixed list
of ones that are not also file extensions: `.com`, `.internal`, `.local`…, not `.so`, `.py`, `.cc`).
"""

from __future__ import annotations

import re

from stallscope.redaction.engine import Fragment, Swap, any_of
from stallscope.redaction.policy import HOSTNAMES
from stallscope.redaction.state import State

ID = HOSTNAMES
LABEL = "Host names and domains"

_TLDS = [
    "com",
    "net",
    "org",
    "edu",
    "gov",
    "mil",
    "int",
    "biz",
    "info",
    "internal",
    "intranet",
    "intra",
    "corp",
    "local",
    "localdomain",
    "lan",
    "home",
    "arpa",
    "cloud",
    "uk",
    "de",
    "fr",
    "nl",
    "jp",
    "cn",
    "ru",
    "br",
    "au",
    "ch",
    "se",
    "no",
    "fi",
    "dk",
    "pl",
    "es",
    "it",
]
_LINUX = re.compile(
    r"Linux (?<![^\n]Linux )"  # a literal first, for speed; then: at the start of a line
    r"(?:(?:version )?\d[^\s()]* \((?P<sysstat>[^()\s]+)\)[ \t]+\d"  # sysstat's first line
    r"|(?P<uname>[^\s()]+) \d+\.\d+\S* #)"  # uname -a
)
_NAMED = re.compile(
    r"(?m)[Hh]ost ?name (?:set|changed) to [<'\"]?(?P<set>[A-Za-z0-9][\w.-]*)"  # systemd's messages
    r"|^kernel\.hostname\s*=\s*(?P<sysctl>\S+)"
    r"|^(?:=+|#|==>)[ \t]*(?:/proc/sys/kernel/hostname|/etc/hostname|hostname(?: -f)?)[ \t]*(?:=+|<==)?"
    r"[ \t]*\r?\n[ \t]*(?P<section>[A-Za-z0-9][\w.-]*)[ \t]*\r?$"  # a snapshot's hostname section
    r"|\bHOSTNAME=(?P<env>[A-Za-z0-9][\w.-]*)"
)
_SYSLOG = re.compile(
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(?<![^\n]...) [ \d]\d \d\d:\d\d:\d\d "
    r"(?P<syslog>[A-Za-z0-9][\w.-]*) [\w.@/()-]+(?:\[\d+\])?: "  # syslog's line prefix
)
_JOURNAL = re.compile(
    r"(?m)^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-][\d:]+)? "
    r"(?P<journal>[A-Za-z0-9][\w.-]*) [\w.@/()-]+(?:\[\d+\])?: "  # journalctl -o short-iso
)
_NAMED_HINTS = any_of(["ostname", "ost name"])
_PRIVATE_TLDS = frozenset(["internal", "intranet", "intra", "corp", "local", "localdomain", "lan", "home"])
"""A two-label name under these (`db7.lan`) is a host in a private domain, not a registered domain."""
_ISO_LINE = re.compile(r"(?m)^\d{4}-\d\d-\d\dT\d")
_FQDN_GATE = re.compile(r"\.(?:" + "|".join(_TLDS) + r")(?![\w-])")
"""Run on the lower-cased block."""
_FQDN = r"(?<![\w.-])(?:[A-Za-z0-9][A-Za-z0-9_-]*+\.)++(?i:" + "|".join(_TLDS) + r")(?![\w-])(?!\.\w)"


class HostRule:
    id = ID
    label = LABEL

    def __init__(self, state: State) -> None:
        self.state = state

    def learn(self, text: str, lowered: str) -> None:
        learners = [_LINUX, _SYSLOG]
        if _ISO_LINE.search(text, 0, 4096):
            learners.append(_JOURNAL)
        self._learn_with(learners, text)

    def learn_sections(self, text: str, lowered: str) -> None:
        """What spans lines (a snapshot's `hostname` section: its header, then the name), read on a
        whole block rather than line by line."""
        if _NAMED_HINTS.search(lowered):
            self._learn_with([_NAMED], text)

    def _learn_with(self, learners: list[re.Pattern[str]], text: str) -> None:
        for learner in learners:
            for found in learner.finditer(text):
                name = found.group(found.lastgroup or 0)
                if name:
                    self.state.host(name)

    def fragments(self) -> list[Fragment]:
        return [Fragment("fqdn", _FQDN, self._fqdn, folded=True, gates=(_FQDN_GATE,))]

    def _fqdn(self, match: re.Match[str]) -> Swap | None:
        name = match.group()
        labels = name.split(".")
        if len(labels) == 2 and labels[1].lower() not in _PRIVATE_TLDS:
            pseudonym = self.state.domain(name)
        else:
            host = self.state.pseudonyms.of("host", labels[0])
            pseudonym = f"{host}.{self.state.domain('.'.join(labels[1:]))}"
        return Swap(ID, match.start(), match.end(), pseudonym)
