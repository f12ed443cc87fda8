"""Known literal values (host, user and container names, symbols) as one regular expression each.

Python's `re` tries the alternatives of `a|b|c` one after another at every position, so thousands of
symbols in a flat alternation would crawl; a trie (`ab(?:c|d)`) costs one step per character that
matches. Longer values win over their prefixes (`db7.example.com` before `db7`): a value that ends
where a longer one goes on is the optional tail of the trie node, tried after the longer branch.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

COMMON_WORDS = frozenset(
    [
        "localhost",
        "linux",
        "kernel",
        "host",
        "server",
        "node",
        "worker",
        "master",
        "main",
        "app",
        "web",
        "api",
        "db",
        "data",
        "dev",
        "test",
        "prod",
        "admin",
        "user",
        "users",
        "guest",
        "default",
        "system",
        "local",
        "cpu",
        "vm",
        "box",
        "docker",
        "ubuntu",
        "debian",
        "centos",
        "fedora",
        "alpine",
        "build",
        "builder",
        "runner",
        "ci",
        "home",
        "work",
        "tmp",
        "log",
        "logs",
        "mail",
        "www",
        "proxy",
        "cache",
        "redis",
        "postgres",
        "mysql",
        "nginx",
        "apache",
        "java",
        "python",
        "backup",
        "storage",
        "primary",
        "replica",
        "gateway",
        "router",
        "monitor",
        "metrics",
        "sys",
        "proc",
        "net",
        "fs",
        "bin",
        "lib",
        "run",
        "srv",
        "opt",
        "var",
        "usr",
        "boot",
        "mnt",
        "media",
        "share",
    ]
)
"""Words that also occur in Linux text as themselves (`/proc/sys/vm`, `vm.swappiness`, `kernel:`)."""
PSEUDONYM_KINDS = frozenset(
    ["host", "domain", "user", "ip", "ip6", "mac", "dir", "env", "secret", "arg", "container", "pod", "sym"]
)
"""The words pseudonyms start with: a value spelt like one only matches standing alone."""

SPECIFIC_AFTER = r"(?![A-Za-z0-9_])"
GENERIC_AFTER = r"(?![\w/-])(?!\.\w)"
"""A short or common value (`vm`, `db`) is replaced only where it stands alone: not as a path
component or a dotted name part, where it is a word of the system (`/proc/sys/vm/`, `vm.dirty_ratio`).
What may come before it is checked by the matcher (`rules/literal.py`)."""


def is_generic(value: str) -> bool:
    lowered = value.lower()
    return len(value) < 4 or lowered in COMMON_WORDS or lowered in PSEUDONYM_KINDS


def trie_pattern(values: Iterable[str]) -> str:
    """One pattern matching any of `values`, longest first. Empty when there are none."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for value in values:
        if not value:
            continue
        node = root
        for char in value:
            node = node.setdefault(char, {})
        node[""] = {}
    return _emit(root)


def _emit(node: dict) -> str:  # type: ignore[type-arg]
    ends_here = "" in node
    branches = []
    for char in sorted(key for key in node if key):
        run, child = char, node[char]
        while len(child) == 1 and "" not in child:  # a chain of single children: one literal run
            ((next_char, next_child),) = child.items()
            run, child = run + next_char, next_child
        branches.append(re.escape(run) + _emit(child))
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if ends_here:
        return f"(?:{body})?"
    return body
