"""One redactor per export: every file of a bundle goes through the same one, so a value gets the
same pseudonym in the flame graph's folded stacks, the raw perf script, the snapshot and the CSV.

Order matters twice. Within a block, the user's patterns run first (they see the text as captured),
then the secrets pass, then one pass of every other rule. Across files, a value is replaced from the
moment it is known: the exporter's `KnownSecrets` are known from the start, and what a file reveals
(`uname -a`, `uid=1000(alice)`) is learnt before that block is redacted. A value revealed only late
in a large file cannot reach back into blocks already written, so the exporter should pass snapshots
and other small files first, or call `learn` on them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from stallscope.redaction.command_lines import CommandLines
from stallscope.redaction.engine import Observer, Pass, Swap, substitute
from stallscope.redaction.known import KnownSecrets
from stallscope.redaction.line_cache import LineCache
from stallscope.redaction.policy import (
    ADDRESSES,
    ARGUMENTS,
    BUILTIN_RULES,
    CONTAINERS,
    HOSTNAMES,
    PATHS,
    SYMBOLS,
    USERS,
    RedactionPolicy,
)
from stallscope.redaction.report import Example, Preview, RedactionReport, RulePreview, RuleReport
from stallscope.redaction.rules import Rule
from stallscope.redaction.rules.addresses import AddressRule
from stallscope.redaction.rules.arguments import SECRET_HINTS, SECRET_PATTERN, ArgumentRule
from stallscope.redaction.rules.containers import ContainerRule
from stallscope.redaction.rules.custom import CustomPass
from stallscope.redaction.rules.hosts import HostRule
from stallscope.redaction.rules.literal import literal_fragments
from stallscope.redaction.rules.paths import PathRule
from stallscope.redaction.rules.users import UserRule
from stallscope.redaction.state import State
from stallscope.redaction.streaming import text_blocks

LINE_CACHE_FROM_CHARS = 64 << 10
MAX_REMEMBERED = 200_000
"""Distinct short strings whose redaction is remembered (see `_remembered`)."""
"""Longer texts are redacted line by line through the cache of lines already seen."""
SYMBOLS_LABEL = "Application symbols (hashed)"
CONTEXT_CHARS = 40
_SECRET_KEY = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?$|secret|token|api[_-]?key|private[_-]?key|credential)"
)
_ENV_KEYS = frozenset({"environment", "env", "environ"})
_ARGV_KEYS = frozenset({"cmdline", "argv", "args", "command_line"})
_HOST_KEYS = frozenset({"host", "hostname", "nodename", "fqdn", "host_name"})
_USER_KEYS = frozenset({"user", "username", "user_name", "owner", "login"})
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


class Redactor:
    def __init__(
        self, policy: RedactionPolicy, known: KnownSecrets | None = None, *, salt: bytes | None = None
    ) -> None:
        """`salt` keys the symbol hashes; left out, a random one is drawn (one per export)."""
        self.policy = policy
        self.state = State(policy, salt)
        self._arguments = ArgumentRule(self.state, self.text)
        self._hosts = HostRule(self.state) if policy.enabled(HOSTNAMES) else None
        self._rules: list[Rule] = [
            rule
            for rule in (
                self._hosts or HostRule(self.state),
                UserRule(self.state),
                PathRule(self.state, policy.path_prefixes, policy.path_depth),
                ContainerRule(self.state),
                self._arguments,
                AddressRule(self.state),
            )
            if policy.enabled(rule.id)
        ]
        self._custom = [CustomPass(rule, self.state) for rule in policy.custom if rule.enabled]
        self._commands = CommandLines(self.state, self.text, self._count_swap)
        self._line_cache = LineCache(self.state, self._learn_sections, self._learn_lines, self._passes)
        self._remembered_texts: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {}
        self._learned: set[str] = set()
        self._memo_version = self.state.version
        self._main: Pass | None = None
        self._main_version = -1
        self._observe: Observer = self._count
        known = known or KnownSecrets()
        for host in sorted(known.hosts):
            self.state.host(host)
        for user in sorted(known.users):
            self.state.user(user)
        for container in sorted(known.containers):
            self.state.container(container)
        if policy.hash_symbols:
            for symbol in known.app_symbols:
                self.state.symbol(symbol)

    # -- the contract -------------------------------------------------------------------------

    def text(self, s: str) -> str:
        """One string, redacted."""
        return self._redact(s, self._observe)

    def lines(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """A text file of any size, redacted block by block (each block whole lines, about 1 MiB).
        Bytes that are not UTF-8 pass through unchanged."""
        if self.policy.is_off:
            yield from chunks
            return
        for block in text_blocks(chunks):
            yield self.text(block.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")

    def json(self, value: Any) -> Any:
        """A JSON value with every string and key redacted; numbers, booleans and nulls untouched.
        Keys say what a value is: a password's value is a secret, `environment` entries are
        variables, `cmdline` lists are command lines, `host`/`hostname` values are hosts."""
        if self.policy.is_off:
            return value
        self._learn_json(value, None)
        return self._json(value, None, None)

    def command_line(self, s: str) -> str:
        """A command line (module `command_lines`): arguments become `arg-N` unless harmless."""
        if not self.policy.enabled(ARGUMENTS):
            return self.text(s)
        self.learn(s)
        return self._commands.line(s)

    def argv(self, args: Sequence[str]) -> list[str]:
        """`command_line` for a command already split into its arguments."""
        if not self.policy.enabled(ARGUMENTS):
            return [self.text(arg) for arg in args]
        for arg in args:
            self.learn(arg)
        return self._commands.argv(args)

    def learn(self, text: str, lowered: str | None = None) -> None:
        """Read `text` for values to replace from now on, without redacting it."""
        self._check_memo()
        if text in self._learned:
            return
        lowered = text.lower() if lowered is None else lowered
        self._learn_sections(text, lowered)
        self._learn_lines(text, lowered)
        if len(text) <= LINE_CACHE_FROM_CHARS:
            self._check_memo()
            self._learned.add(text)

    def _learn_lines(self, text: str, lowered: str) -> None:
        for rule in self._rules:
            rule.learn(text, lowered)

    def _learn_sections(self, text: str, lowered: str) -> None:
        if self._hosts is not None:
            self._hosts.learn_sections(text, lowered)

    def report(self) -> RedactionReport:
        """Counts per rule, for the bundle's manifest: never an original value."""
        return RedactionReport(
            tuple(
                RuleReport(
                    rule_id,
                    label,
                    self.policy.enabled(rule_id),
                    self.state.counts[rule_id],
                    len(self.state.issued.get(rule_id, ())),
                )
                for rule_id, label in self._rule_labels()
            )
        )

    def preview(self, samples: Iterable[tuple[str, str]], examples_per_rule: int = 5) -> Preview:
        """What each rule would replace in `samples` ((source name, text) pairs): match counts and
        the first examples in context. Pseudonyms issued here stay (they are the export's), counts
        go to the preview only, not to the report."""
        counts: Counter[str] = Counter()
        examples: dict[str, list[Example]] = {}
        source = ""

        def observe(text: str, swap: Swap) -> None:
            counts[swap.rule_id] += 1
            found = examples.setdefault(swap.rule_id, [])
            if len(found) < examples_per_rule:
                found.append(
                    Example(
                        source,
                        text[max(0, swap.start - CONTEXT_CHARS) : swap.start],
                        text[swap.start : swap.end],
                        text[swap.end : swap.end + CONTEXT_CHARS],
                        swap.pseudonym,
                    )
                )

        for source, sample in samples:  # noqa: B007  (read by `observe`)
            self._redact(sample, observe)
        return Preview(
            tuple(
                RulePreview(
                    rule_id,
                    label,
                    self.policy.enabled(rule_id),
                    counts[rule_id],
                    tuple(examples.get(rule_id, ())),
                )
                for rule_id, label in self._rule_labels()
            )
        )

    # -- inside -------------------------------------------------------------------------------

    def _rule_labels(self) -> list[tuple[str, str]]:
        labels = {
            HOSTNAMES: HostRule.label,
            USERS: UserRule.label,
            ADDRESSES: AddressRule.label,
            PATHS: PathRule.label,
            ARGUMENTS: ArgumentRule.label,
            CONTAINERS: ContainerRule.label,
        }
        rules = [(rule_id, labels[rule_id]) for rule_id in BUILTIN_RULES]
        rules.append((SYMBOLS, SYMBOLS_LABEL))
        rules += [(rule.rule_id, f"Custom: {rule.name}") for rule in self.policy.custom]
        return rules

    def _count(self, text: str, swap: Swap) -> None:
        self.state.count(swap.rule_id, swap.pseudonym)

    def _count_swap(self, swap: Swap) -> None:
        self._observe("", swap)

    def _redact(self, text: str, observe: Observer) -> str:
        if self.policy.is_off or not text:
            return text
        if len(text) > LINE_CACHE_FROM_CHARS and observe == self._count:
            return self._line_cache.redact(text)
        if observe == self._count:
            return self._remembered(text)
        lowered = text.lower()
        self.learn(text, lowered)
        return self._passes(text, lowered, observe)

    def _remembered(self, text: str) -> str:
        """`text` redacted, each distinct string once while nothing new is learnt.

        An export hands the redactor the same strings again and again (JSON keys such as `name`,
        thread and frame names in every view's answer, every CSV row's comm): the redacted form and
        what it replaced are kept, and a repeat counts its replacements again, so the report stays
        exact. Everything is forgotten when a value is learnt, as the line cache does.
        """
        self._check_memo()
        entry = self._remembered_texts.get(text)
        if entry is None:
            lowered = text.lower()
            self.learn(text, lowered)
            swaps: list[tuple[str, str]] = []
            redacted = self._passes(
                text, lowered, lambda _t, swap: swaps.append((swap.rule_id, swap.pseudonym))
            )
            entry = (redacted, tuple(swaps))
            self._check_memo()
            self._remembered_texts[text] = entry
        for rule_id, pseudonym in entry[1]:
            self.state.count(rule_id, pseudonym)
        return entry[0]

    def _check_memo(self) -> None:
        """Forget remembered strings once a value is learnt (they may now hold it) or too many are kept."""
        if self._memo_version != self.state.version or len(self._remembered_texts) > MAX_REMEMBERED:
            self._remembered_texts.clear()
            self._learned.clear()
            self._memo_version = self.state.version
        elif len(self._learned) > MAX_REMEMBERED:
            self._learned.clear()

    def _passes(self, text: str, lowered: str, observe: Observer) -> str:
        for custom in self._custom:
            text = custom.run(text, observe)
        if self.policy.enabled(ARGUMENTS) and SECRET_HINTS.found_in(lowered):
            text = self._secrets(text, observe)
        return self._main_pass().run(text, lowered, observe)

    def _secrets(self, text: str, observe: Observer) -> str:
        return substitute(SECRET_PATTERN, self._arguments.secret, text, observe)

    def _main_pass(self) -> Pass:
        if self._main is None or self._main_version != self.state.version:
            by_id = {rule.id: rule for rule in self._rules}
            fragments = []
            for rule_id in (PATHS, CONTAINERS, ARGUMENTS):
                if rule_id in by_id:
                    fragments += by_id[rule_id].fragments()
            fragments += literal_fragments(self.state)
            for rule_id in (HOSTNAMES, ADDRESSES):
                if rule_id in by_id:
                    fragments += by_id[rule_id].fragments()
            self._main = Pass(fragments)
            self._main_version = self.state.version
        return self._main

    def _learn_json(self, value: Any, key: str | None) -> None:
        pending: list[tuple[Any, str | None]] = [(value, key)]
        while pending:
            item, item_key = pending.pop()
            if isinstance(item, str):
                self.learn(item)
                if item_key in _HOST_KEYS:
                    self.state.host(item)
                elif item_key in _USER_KEYS:
                    self.state.user(item)
            elif isinstance(item, dict):
                for child_key, child in item.items():
                    if isinstance(child_key, str):
                        self.learn(child_key)
                    pending.append((child, child_key if isinstance(child_key, str) else None))
            elif isinstance(item, list):
                pending.extend((child, item_key) for child in item)

    def _json(self, value: Any, key: str | None, parent: str | None) -> Any:
        if isinstance(value, str):
            return self._json_string(value, key, parent)
        if isinstance(value, dict):
            return {
                self._json_key(k): self._json(v, k if isinstance(k, str) else None, key)
                for k, v in value.items()
            }
        if isinstance(value, list):
            if key in _ARGV_KEYS and all(isinstance(item, str) for item in value):
                return self.argv(value)
            return [self._json(item, key, parent) for item in value]
        return value

    def _json_key(self, key: object) -> object:
        return self.text(key) if isinstance(key, str) else key

    def _json_string(self, value: str, key: str | None, parent: str | None) -> str:
        if key is not None and self.policy.enabled(ARGUMENTS) and value:
            if parent in _ENV_KEYS and _ENV_NAME.match(key):
                swapped = self._arguments.env_value(key, value)
                if swapped != value:
                    self._observe(value, Swap(ARGUMENTS, 0, len(value), swapped))
                return swapped
            if _SECRET_KEY.search(key) and not key.lower().endswith(("_path", "_file", "_ttl")):
                pseudonym = self.state.pseudonyms.of("secret", value)
                self._observe(value, Swap(ARGUMENTS, 0, len(value), pseudonym))
                return pseudonym
        return self.text(value)
