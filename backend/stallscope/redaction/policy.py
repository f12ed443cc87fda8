"""What a redaction does: which built-in rules run, which path prefixes hide what follows them, the
user's own patterns, and whether application symbols are hashed.

One frozen value travels from the CLI's `--redact RULES.toml` or the preview screen to the exporter,
so that what the user saw in the preview is exactly what the bundle gets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

HOSTNAMES = "hostnames"
USERS = "users"
ADDRESSES = "addresses"
PATHS = "paths"
ARGUMENTS = "arguments"
CONTAINERS = "containers"
SYMBOLS = "symbols"
"""The symbol-hashing rule: on only when `hash_symbols` is; it has no switch in `rules`."""
CUSTOM_PREFIX = "custom:"

BUILTIN_RULES = (HOSTNAMES, USERS, ADDRESSES, PATHS, ARGUMENTS, CONTAINERS)
"""The built-in rules a policy switches on and off, in the order reports list them."""

DEFAULT_PATH_PREFIXES = ("/home/", "/root/", "/Users/", "/srv/", "/var/www/", "/media/")
"""Where the next path component names a person, a customer or a site: home directories (Linux,
the super-user's, macOS), per-site service trees (`/srv/<site>`, `/var/www/<site>`) and removable
media (`/media/<user>/<label>`). `/opt/` is not here: what follows it names the software, which the
vendor needs to read the frames."""

MAX_PATH_DEPTH = 16
_CUSTOM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


@dataclass(frozen=True)
class CustomRule:
    """A user's own pattern: every match becomes `<name>-N` (only group 1 when the pattern has groups)."""

    name: str
    pattern: str
    enabled: bool = True

    def __post_init__(self) -> None:
        if not _CUSTOM_NAME.match(self.name):
            raise ValueError(
                f"custom rule name {self.name!r}: use 1-40 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit"
            )
        try:
            compiled = re.compile(self.pattern)
        except re.error as exc:
            raise ValueError(f"custom rule {self.name!r}: invalid regular expression: {exc}") from exc
        if compiled.match(""):
            raise ValueError(f"custom rule {self.name!r}: the pattern matches empty text")

    @property
    def rule_id(self) -> str:
        return CUSTOM_PREFIX + self.name


@dataclass(frozen=True)
class RedactionPolicy:
    """Built-in rules in `rules` run; `path_depth` components after a prefix are replaced."""

    rules: frozenset[str] = frozenset(BUILTIN_RULES)
    path_prefixes: tuple[str, ...] = DEFAULT_PATH_PREFIXES
    path_depth: int = 1
    custom: tuple[CustomRule, ...] = field(default=())
    hash_symbols: bool = False

    def __post_init__(self) -> None:
        unknown = sorted(set(self.rules) - set(BUILTIN_RULES))
        if unknown:
            raise ValueError(f"unknown rule {unknown[0]!r} (known: {', '.join(BUILTIN_RULES)})")
        for prefix in self.path_prefixes:
            if not prefix.startswith("/") or not prefix.endswith("/") or len(prefix) < 3:
                raise ValueError(f"path prefix {prefix!r}: write an absolute folder ending in '/'")
        if not 1 <= self.path_depth <= MAX_PATH_DEPTH:
            raise ValueError(f"path_depth must be between 1 and {MAX_PATH_DEPTH}, not {self.path_depth}")
        names = [rule.name for rule in self.custom]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"custom rule {duplicates[0]!r} is defined twice")

    @classmethod
    def default(cls) -> RedactionPolicy:
        return cls()

    @classmethod
    def none(cls) -> RedactionPolicy:
        """Redaction off: the bundle carries the data as captured."""
        return cls(rules=frozenset(), custom=(), hash_symbols=False)

    def enabled(self, rule_id: str) -> bool:
        if rule_id == SYMBOLS:
            return self.hash_symbols
        if rule_id.startswith(CUSTOM_PREFIX):
            return any(rule.rule_id == rule_id and rule.enabled for rule in self.custom)
        return rule_id in self.rules

    @property
    def is_off(self) -> bool:
        """Nothing would change: the exporter may copy files as they are."""
        return not self.rules and not self.hash_symbols and not any(r.enabled for r in self.custom)

    def without(self, rule_id: str) -> RedactionPolicy:
        """The same policy with one built-in rule unticked."""
        return replace(self, rules=self.rules - {rule_id})
