"""Policies as TOML (the CLI's `--redact RULES.toml`) and as JSON (the preview screen), one shape.

    # RULES.toml: every key is optional; what is left out keeps its default.
    path_prefixes = ["/home/", "/srv/", "/data/customers/"]   # replaces the default list
    path_depth = 1            # path components replaced after a prefix
    hash_symbols = false      # true: application symbols become sym-<hash>

    [rules]                   # built-in rules, all true by default
    hostnames = true
    users = true
    addresses = true          # IPv4, IPv6, MAC
    paths = true
    arguments = true          # environment values, secret flags, command-line arguments
    containers = true

    [[custom]]                # any number; each is rule `custom:<name>`
    name = "ticket"
    pattern = 'ACME-\\d+'     # literal strings ('...') keep backslashes as typed
    # enabled = false         # listed but not applied

Top-level keys come before the tables, as TOML requires. The JSON shape is the same document.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from stallscope.redaction.policy import BUILTIN_RULES, CustomRule, RedactionPolicy

_TOP_KEYS = ("rules", "path_prefixes", "path_depth", "hash_symbols", "custom")
_CUSTOM_KEYS = ("name", "pattern", "enabled")


class PolicyError(ValueError):
    """A policy that cannot be used, with the key (and in TOML, the line) that is wrong."""


def policy_to_json(policy: RedactionPolicy) -> dict[str, Any]:
    return {
        "rules": {rule: rule in policy.rules for rule in BUILTIN_RULES},
        "path_prefixes": list(policy.path_prefixes),
        "path_depth": policy.path_depth,
        "hash_symbols": policy.hash_symbols,
        "custom": [
            {"name": rule.name, "pattern": rule.pattern, "enabled": rule.enabled} for rule in policy.custom
        ],
    }


def policy_from_json(obj: object) -> RedactionPolicy:
    """Read the `policy_to_json` shape; missing keys keep their defaults. Raises PolicyError."""
    return _from_document(obj, _no_line)


def load_policy_toml(text: str) -> RedactionPolicy:
    """Read a RULES.toml (module docstring). Errors name the line and key. Raises PolicyError."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"RULES.toml is not valid TOML: {exc}") from exc
    return _from_document(document, lambda key: _line_of(text, key))


def _no_line(key: str) -> str:
    return ""


def _line_of(text: str, key: str) -> str:
    """' (line N)' where `key` (the last part of a dotted path) is first set or opened, else ''."""
    table = re.match(r"custom\[(\d+)\]", key)
    if table:  # the N-th [[custom]] table
        opened = list(re.finditer(r"(?m)^[ \t]*\[\[[ \t]*custom[ \t]*\]\]", text))
        index = int(table.group(1))
        if index < len(opened):
            return f" (line {text.count(chr(10), 0, opened[index].start()) + 1})"
    name = key.rsplit(".", 1)[-1].split("[", 1)[0]
    found = re.search(
        rf"(?m)^[ \t]*(?:\[\[?[ \t]*{re.escape(name)}[ \t]*\]\]?|\"?{re.escape(name)}\"?[ \t]*=)", text
    )
    return f" (line {text.count(chr(10), 0, found.start()) + 1})" if found else ""


def _fail(where: Any, key: str, why: str) -> PolicyError:
    return PolicyError(f"{key}{where(key)}: {why}")


def _from_document(obj: object, where: Any) -> RedactionPolicy:
    if not isinstance(obj, dict):
        raise PolicyError("a redaction policy is a table (JSON object)")
    for key in obj:
        if key not in _TOP_KEYS:
            raise _fail(where, str(key), f"unknown key (known: {', '.join(_TOP_KEYS)})")
    defaults = RedactionPolicy.default()
    rules = set(defaults.rules)
    switches = obj.get("rules", {})
    if not isinstance(switches, dict):
        raise _fail(where, "rules", "expected a table of rule = true/false")
    for name, on in switches.items():
        if name not in BUILTIN_RULES:
            raise _fail(where, f"rules.{name}", f"unknown rule (known: {', '.join(BUILTIN_RULES)})")
        if not isinstance(on, bool):
            raise _fail(where, f"rules.{name}", "expected true or false")
        (rules.add if on else rules.discard)(name)
    prefixes = obj.get("path_prefixes", list(defaults.path_prefixes))
    if not isinstance(prefixes, list) or not all(isinstance(p, str) for p in prefixes):
        raise _fail(where, "path_prefixes", "expected a list of folder strings")
    depth = obj.get("path_depth", defaults.path_depth)
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise _fail(where, "path_depth", "expected a whole number")
    hash_symbols = obj.get("hash_symbols", defaults.hash_symbols)
    if not isinstance(hash_symbols, bool):
        raise _fail(where, "hash_symbols", "expected true or false")
    custom = _custom_rules(obj.get("custom", []), where)
    try:
        return RedactionPolicy(
            rules=frozenset(rules),
            path_prefixes=tuple(prefixes),
            path_depth=depth,
            custom=custom,
            hash_symbols=hash_symbols,
        )
    except ValueError as exc:
        message = str(exc)
        key = "path_depth" if message.startswith("path_depth") else "path_prefixes"
        if message.startswith("custom"):
            key = "custom"
        raise _fail(where, key, message) from exc


def _custom_rules(items: object, where: Any) -> tuple[CustomRule, ...]:
    if not isinstance(items, list):
        raise _fail(where, "custom", "expected a list of {name, pattern} tables")
    rules: list[CustomRule] = []
    for index, item in enumerate(items):
        key = f"custom[{index}]"
        if not isinstance(item, dict):
            raise _fail(where, key, "expected a table with name and pattern")
        for name in item:
            if name not in _CUSTOM_KEYS:
                raise _fail(where, f"{key}.{name}", f"unknown key (known: {', '.join(_CUSTOM_KEYS)})")
        name, pattern, enabled = item.get("name"), item.get("pattern"), item.get("enabled", True)
        if not isinstance(name, str) or not isinstance(pattern, str):
            raise _fail(where, key, "name and pattern are both required strings")
        if not isinstance(enabled, bool):
            raise _fail(where, f"{key}.enabled", "expected true or false")
        try:
            rules.append(CustomRule(name, pattern, enabled))
        except ValueError as exc:
            raise _fail(where, key, str(exc)) from exc
    return tuple(rules)
