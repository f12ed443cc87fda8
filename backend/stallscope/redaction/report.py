"""What a redaction did (goes into the bundle) and what it would do (shown to the exporting user).

The report carries counts only, never an original value: it is written into the bundle's manifest.
The preview carries originals in context, and is only ever shown to the person exporting.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RuleReport:
    id: str
    label: str
    enabled: bool
    replacements: int
    pseudonyms: int
    """How many distinct pseudonyms the rule issued (for hashed symbols: distinct hashes)."""


@dataclass(frozen=True)
class RedactionReport:
    rules: tuple[RuleReport, ...]

    @property
    def replacements(self) -> int:
        return sum(rule.replacements for rule in self.rules)

    def to_json(self) -> dict[str, Any]:
        return {"replacements": self.replacements, "rules": [asdict(rule) for rule in self.rules]}


@dataclass(frozen=True)
class Example:
    """One match in context: `before` + `match` + `after` is the original text around it."""

    source: str
    before: str
    match: str
    after: str
    pseudonym: str


@dataclass(frozen=True)
class RulePreview:
    id: str
    label: str
    enabled: bool
    matches: int
    examples: tuple[Example, ...]


@dataclass(frozen=True)
class Preview:
    rules: tuple[RulePreview, ...]

    def rule(self, rule_id: str) -> RulePreview:
        return next(rule for rule in self.rules if rule.id == rule_id)

    def to_json(self) -> dict[str, Any]:
        return {"rules": [asdict(rule) for rule in self.rules]}
