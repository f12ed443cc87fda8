"""What an export asks for, and what the preview answers."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field


class CustomRuleOut(BaseModel):
    """One of the policy's own patterns: every match becomes `<name>-N`."""

    name: str
    pattern: str
    enabled: bool


class RedactionPolicyOut(BaseModel):
    """A redaction policy in `redaction/policy_io.py`'s JSON shape: what the preview answers, and what a
    custom export sends back (as `RedactionChoice.policy`)."""

    rules: dict[str, bool]
    """Built-in rules by id (hostnames, users, addresses, paths, arguments, containers): on or off."""
    path_prefixes: list[str]
    path_depth: int
    hash_symbols: bool
    """The `symbols` rule: application symbols become `sym-<hash>`."""
    custom: list[CustomRuleOut]


class RedactionChoice(BaseModel):
    """`default` (every built-in rule), `none`, or `custom` with the rules the preview edited."""

    mode: Literal["default", "none", "custom"] = "default"
    policy: dict[str, Any] | None = Field(
        default=None,
        description="With mode custom: the policy as the preview returns it (rules on/off, custom rules)",
    )


class BundleRequest(BaseModel):
    """The part of an incident to export. Absent fields mean all of it."""

    captures: list[int] | None = Field(
        default=None, description="Only these captures (all parsed ones when absent)"
    )
    hosts: list[str] | None = Field(default=None, description="Only the captures of these hosts")
    start: datetime | None = Field(
        default=None,
        description="Views and CSV files from this instant (ISO 8601); captures' records travel whole",
    )
    end: datetime | None = Field(
        default=None, description="Views and CSV files before this instant (ISO 8601)"
    )
    views: list[str] | None = Field(
        default=None, description="Saved views (short link ids) to include besides the standard ones"
    )
    standard_views: bool = Field(
        default=True, description="The flame graph, threads and heatmap of each host, the diff, the timeline…"
    )
    findings: bool = True
    annotations: bool = True
    postmortem: bool = True
    raw: bool = Field(default=False, description="Include the raw captures too (redacted like the rest)")
    redaction: RedactionChoice = Field(default_factory=RedactionChoice)


class PreviewExample(BaseModel):
    source: str
    before: str
    match: str
    after: str
    replacement: str


class PreviewRule(BaseModel):
    id: str
    label: str
    enabled: bool
    matches: int
    examples: list[PreviewExample]


class RedactionPreviewOut(BaseModel):
    """Each rule, how often it matches what the bundle would hold, and examples in context."""

    rules: list[PreviewRule]
    policy: RedactionPolicyOut
    sources: int
    """How many texts were looked at."""


class ImportedCaptureOut(BaseModel):
    id: int
    filename: str
    host: str | None


class BundleImportOut(BaseModel):
    """The new incident and its captures, queued for parsing."""

    incident_id: int
    captures: list[ImportedCaptureOut]
    skipped: list[str]
