"""What one redactor has learnt: pseudonyms issued, literal values to replace, counts per rule.

Rules read and add to it; the engine rebuilds its patterns when `version` moves (a value was learnt).
"""

from __future__ import annotations

import ipaddress
import re
from collections import Counter
from dataclasses import dataclass, field

from stallscope.redaction.policy import CONTAINERS, HOSTNAMES, SYMBOLS, USERS, RedactionPolicy
from stallscope.redaction.pseudonyms import Pseudonyms

NOT_SECRET_HOSTS = frozenset(
    {"localhost", "localhost.localdomain", "localdomain", "(none)", "ip6-localhost", "ip6-loopback"}
)
NOT_SECRET_USERS = frozenset({"root", "nobody", "daemon", "bin", "sys", "sync", "user", "users"})
"""Accounts every Linux host has: naming them tells a reader nothing about whose host it is."""

_HOST_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_-]{1,63})*$")
_USER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,31}\$?$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Literal:
    rule_id: str
    pseudonym: str


@dataclass
class LiteralSet:
    """Values matched as written (`exact`) or without case (`folded`, keys lower-cased)."""

    exact: dict[str, Literal] = field(default_factory=dict)
    folded: dict[str, Literal] = field(default_factory=dict)

    def lookup(self, value: str) -> Literal | None:
        return self.exact.get(value) or self.folded.get(value.lower())


class State:
    def __init__(self, policy: RedactionPolicy, salt: bytes | None = None) -> None:
        self.policy = policy
        self.pseudonyms = Pseudonyms(salt)
        self.literals = LiteralSet()
        self.version = 0
        self.counts: Counter[str] = Counter()
        self.issued: dict[str, set[str]] = {}

    # -- what rules learn ---------------------------------------------------------------------

    def add_literal(self, rule_id: str, value: str, pseudonym: str, *, folded: bool = False) -> None:
        if not self.policy.enabled(rule_id) or not value or value == pseudonym:
            return
        table = self.literals.folded if folded else self.literals.exact
        key = value.lower() if folded else value
        if key not in table:
            table[key] = Literal(rule_id, pseudonym)
            self.version += 1

    def host(self, name: str) -> str | None:
        """The pseudonym of a host name or FQDN (`host-1`, `host-1.domain-1`), learning it; None
        when it is no secret (localhost, an address)."""
        name = name.strip().rstrip(".")
        if not _HOST_NAME.match(name) or name.lower() in NOT_SECRET_HOSTS or name.isdigit():
            return None
        try:
            ipaddress.ip_address(name)
        except ValueError:
            pass
        else:
            return None
        short, _, domain = name.partition(".")
        host = self.pseudonyms.of("host", short)
        if short.lower() not in NOT_SECRET_HOSTS and not short.isdigit():
            self.add_literal(HOSTNAMES, short, host, folded=True)
        if not domain:
            return host
        pseudonym = f"{host}.{self.domain(domain)}"
        self.add_literal(HOSTNAMES, name, pseudonym, folded=True)
        return pseudonym

    def domain(self, domain: str) -> str:
        pseudonym = self.pseudonyms.of("domain", domain)
        if "." in domain:  # a one-label domain (`lan`) is a word too; it is replaced with its host
            self.add_literal(HOSTNAMES, domain, pseudonym, folded=True)
        return pseudonym

    def user(self, name: str) -> str | None:
        if not _USER_NAME.match(name) or name in NOT_SECRET_USERS:
            return None
        pseudonym = self.pseudonyms.of("user", name)
        self.add_literal(USERS, name, pseudonym)
        return pseudonym

    def container(self, name: str) -> str | None:
        """A container name or id; a 64-hex id's 12-character short form (what `docker ps` and the
        container's own hostname show) gets the same pseudonym."""
        if not name or name.isdigit():
            return None
        pseudonym = self.pseudonyms.of("container", name)
        self.add_literal(CONTAINERS, name, pseudonym)
        if _HEX64.match(name):
            self.add_literal(CONTAINERS, name[:12], pseudonym)
        return pseudonym

    def pod(self, uid: str) -> str:
        """A Kubernetes pod uid, written with `-` (cgroupfs, kubelet paths) or `_` (systemd slices)."""
        canonical = uid.replace("_", "-").lower()
        pseudonym = self.pseudonyms.of("pod", canonical)
        self.add_literal(CONTAINERS, canonical, pseudonym)
        self.add_literal(CONTAINERS, canonical.replace("-", "_"), pseudonym)
        return pseudonym

    def symbol(self, name: str) -> None:
        self.add_literal(SYMBOLS, name, self.pseudonyms.symbol(name))

    # -- what was done ------------------------------------------------------------------------

    def count(self, rule_id: str, pseudonym: str) -> None:
        self.counts[rule_id] += 1
        self.issued.setdefault(rule_id, set()).add(pseudonym)
