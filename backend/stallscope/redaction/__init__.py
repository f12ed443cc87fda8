"""Linux-aware redaction for what leaves the company: host and user names, addresses, names in
paths, environment values and secrets, container ids, custom patterns, optionally symbols.

Pure and streaming: no database, no HTTP. The bundle exporter builds one `Redactor` per export from
a `RedactionPolicy` and the `KnownSecrets` of the incident, runs every file through it, and writes
`report()` into the manifest. See README.md for the rules, pseudonyms and the RULES.toml format.
"""

from stallscope.redaction.known import KnownSecrets
from stallscope.redaction.policy import BUILTIN_RULES, CustomRule, RedactionPolicy
from stallscope.redaction.policy_io import PolicyError, load_policy_toml, policy_from_json, policy_to_json
from stallscope.redaction.redactor import Redactor
from stallscope.redaction.report import Example, Preview, RedactionReport, RulePreview, RuleReport

__all__ = [
    "BUILTIN_RULES",
    "CustomRule",
    "Example",
    "KnownSecrets",
    "PolicyError",
    "Preview",
    "RedactionPolicy",
    "RedactionReport",
    "Redactor",
    "RulePreview",
    "RuleReport",
    "load_policy_toml",
    "policy_from_json",
    "policy_to_json",
]
