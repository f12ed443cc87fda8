"""One take of a text snapshot: the sections mapped so far, the text kept, and the bounds on both.

A file holds several takes when a script ran more than once into it (start and end of an incident):
each becomes its own snapshot document, in the collector's layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stallscope.ingest.model import ParseReport
from stallscope.ingest.snapshot import model
from stallscope.ingest.snapshot_text.secrets import redact_text

MAX_KEYS = 100_000
"""Mapped values per take: a whole `sysctl -a` and kernel config are about 7,000."""
MAX_SECTION_TEXT_CHARS = 256 << 10
"""Text kept per unmapped section: enough for a `ps` or `top` listing, not for a log."""
MAX_TAKE_TEXT_CHARS = 2 << 20
"""Text kept per take, whatever the number of sections."""


@dataclass(slots=True)
class Take:
    report: ParseReport
    index: int
    first_line: int
    label: str | None = None
    taken_at_ns: int | None = None
    host: str | None = None
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    """Names of the sections read so far: the same name again starts the next take."""
    keys: int = 0
    text_chars: int = 0
    keys_dropped: int = 0
    line: int = 0
    """The line of the section being read, for warnings raised while mapping it."""
    deferred: list[tuple[str | None, int, str]] | None = None
    """(name, line, body) of sections not mapped yet: a take that may be dropped is mapped only once
    it is known to be kept (see `parser.MAX_TAKES`)."""
    deferred_chars: int = 0

    @property
    def empty(self) -> bool:
        return (
            not self.sections
            and not self.text
            and self.host is None
            and self.taken_at_ns is None
            and not self.deferred
        )

    def warn(self, message: str) -> None:
        self.report.warn(self.line, message)

    def name_host(self, host: str) -> None:
        """The host's name, unless the take already has one (the first one read wins)."""
        if self.host is None:
            self.host = host

    def section(self, name: str) -> dict[str, Any]:
        found = self.sections.get(name)
        if found is None:
            found = self.sections[name] = {}
        return found

    def put(self, section: str, key: str, value: Any) -> None:
        """Set one value; past `MAX_KEYS` values are counted, not kept."""
        target = self.sections.get(section)
        if target is None:
            target = self.sections[section] = {}
        if key not in target:
            if self.keys >= MAX_KEYS:
                self.keys_dropped += 1
                return
            self.keys += 1
        target[key] = value

    def put_many(self, section: str, values: dict[str, Any]) -> None:
        """`put` for a whole table at once (a kernel config's thousands of options)."""
        target = self.section(section)
        new = len(values.keys() - target.keys())
        if self.keys + new <= MAX_KEYS:
            target.update(values)
            self.keys += new
            return
        for key, value in values.items():
            self.put(section, key, value)

    def put_in(self, section: str, key: str, inner: str, value: Any) -> None:
        """Set `sections[section][key][inner]`, e.g. one CPU's governor or one process's comm."""
        found = self.section(section).get(key)
        target: dict[str, Any]
        if isinstance(found, dict):
            target = found
        else:
            target = {}
            self.put(section, key, target)
            if key not in self.section(section):
                return  # over the bound
        if inner not in target:
            if self.keys >= MAX_KEYS:
                self.keys_dropped += 1
                return
            self.keys += 1
        target[inner] = value

    def error(self, section: str, key: str, message: str) -> None:
        """A value that could not be read: None, with the reason under the section's `errors`, as
        the collector records it."""
        target = self.section(section)
        if target.get(key) is None:
            self.put(section, key, None)
        errors = target.get("errors")
        if not isinstance(errors, dict):
            errors = target["errors"] = {}
        errors[key] = message

    def keep_text(self, name: str, text: str) -> None:
        """Keep an unmapped section as text, secrets masked, within the bounds."""
        text = text.strip("\n").replace("\x00", " ")
        if not text.strip():
            return
        room = min(MAX_SECTION_TEXT_CHARS, MAX_TAKE_TEXT_CHARS - self.text_chars)
        if len(text) > room:
            self.warn(
                f"section {name!r}: kept the first {max(room, 0):,} of {len(text):,} characters "
                f"(text is kept up to {MAX_SECTION_TEXT_CHARS >> 10} KiB a section and "
                f"{MAX_TAKE_TEXT_CHARS >> 20} MiB a take)",
            )
            if room <= 0:
                return
            text = text[:room]
        previous = self.text.get(name)
        text = redact_text(text)
        self.text[name] = text if previous is None else previous + "\n" + text
        self.text_chars += len(text)

    def document(self, style: str | None) -> dict[str, Any]:
        """The take as a snapshot document; `take` and `source` say where in which file it came from."""
        return model.document(
            self.host,
            self.taken_at_ns,
            self.sections,
            text_sections=self.text,
            take={"index": self.index, "label": self.label, "line": self.first_line},
            source={"format": "text", "header_style": style},
        )
