"""Stream a text snapshot into snapshot documents, one per take.

Headers are found with one regular expression over each 4 MB block, so the text between them is
never walked line by line in Python unless its section is one that maps line by line (`sysctl -a`,
`grep -r`). A take ends where a `start`/`end` marker begins the next one, or where a section name it
already holds comes again (the same script run twice into one file).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from stallscope.ingest.model import Document, ParseError, ParseReport, Record
from stallscope.ingest.perf_script.detect import PERF_DATA_MESSAGE, looks_like_perf_data
from stallscope.ingest.snapshot.model import KIND
from stallscope.ingest.snapshot_text.headers import (
    HEADER,
    HEADER_OF_STYLE,
    STYLE_OF_GROUP,
    Marker,
    Style,
    hash_header_name,
    phase_marker,
)
from stallscope.ingest.snapshot_text.paths import scalar_target
from stallscope.ingest.snapshot_text.repeats import read_section_once
from stallscope.ingest.snapshot_text.sections import KNOWN_NAMES, scalar_section
from stallscope.ingest.snapshot_text.take import MAX_KEYS, Take
from stallscope.ingest.text_lines import TextLines

MAX_TAKES = 20
"""Takes kept per file: the first 19 and the last (start and end are the ones compared)."""
MAX_SECTION_CHARS = 16 << 20
"""A section's text held while it is read; past it the section is cut (a log, not a setting)."""
MAX_DEFERRED_CHARS = 64 << 20
"""Text of a take held unmapped while it may yet be dropped; past it the take is mapped as it is read."""


@dataclass(frozen=True, slots=True)
class Opening:
    """What a header's name says, worked out once per distinct name: every take repeats them."""

    marker: Marker | None
    """Set when the header starts a take rather than a section."""
    key: str
    """The name as `Take.seen` holds it."""
    scalar: tuple[str, str] | None
    """(section, key) when the section is one file stored as it is (`sections.scalar_section`)."""


@functools.lru_cache(maxsize=4096)
def opening(name: str) -> Opening:
    key = name.strip()
    if key[:1] == "/" and "|" not in key and len(key.split()) == 1:
        # One file's path, most headers: neither a marker nor a command, so `scalar_section` comes
        # down to `scalar_target`, without first taking the name apart as a command line.
        return Opening(None, key, None if "*" in key or "?" in key else scalar_target(key))
    return Opening(phase_marker(name), key, scalar_section(name))


class SnapshotReader:
    """Cuts decoded text into sections at its headers and hands each, whole, to `read_section`."""

    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self.style: Style | None = None
        self.take = Take(report, 0, 1)
        self.name: str | None = None
        self.name_line = 1
        self.scalar: tuple[str, str] | None = None
        """The open section's `Opening.scalar`."""
        self.carried: list[str] = []
        """The open section's text from earlier blocks (most sections start and end in one)."""
        self.carried_chars = 0
        self.cut = False
        self.emitted = 0
        self.held: Take | None = None
        self.skipped_takes = 0

    def feed(self, first_line: int, text: str) -> Iterator[Document]:
        """Read complete lines (`text` holds no final newline); yields the takes they complete."""
        position, line = 0, first_line
        if self.style is None:
            position, line = yield from self._until_style(first_line, text)
            if self.style is None:
                self._carry(text + "\n")
                return
        if self.style is not Style.HASH:
            rest = text[position:] if position else text
            yield from self._feed_split(HEADER_OF_STYLE[self.style], line, rest)
            return
        # A header's match starts at the newline before it: its index in `framed` is the header's
        # own index in `text`, and the match ends at the newline after it, where the next section
        # starts in `text`.
        framed = "\n" + text + "\n"
        for header in HEADER_OF_STYLE[self.style].finditer(framed, position):
            name = header.group(1)
            if not hash_header_name(name, KNOWN_NAMES):
                continue
            start = header.start()
            line += text.count("\n", position, start)
            done = self._section_starts(name, line, text[position:start])
            if done is not None:
                yield done
            position = header.end()
            line += 1
        self._carry(text[position:] + "\n")

    def _feed_split(self, headers: re.Pattern[str], line: int, text: str) -> Iterator[Document]:
        """`feed` for the `==` and `----` styles, where every match is a header: one `split` cuts the
        block, instead of a match object and two slices a section. Each piece after a header holds
        the section's text with the header's newline in front rather than its own last one at the
        end (the first piece, the newline added in front of the block): the same characters, which
        is all the one-value fast path looks at; the general path gets the text as it was."""
        pieces = headers.split("\n" + text + "\n")
        section_starts = self._section_starts
        piece = pieces[0]
        for index in range(1, len(pieces), 2):
            line += piece.count("\n")
            done = section_starts(pieces[index], line, piece, True)
            if done is not None:
                yield done
            line += 1
            piece = pieces[index + 1]
        # The text after the last header, and its newline; a lone newline when the header ended the block.
        self._carry(piece[1:] if len(piece) > 1 else piece)

    def _until_style(self, first_line: int, text: str) -> Generator[Document, None, tuple[int, int]]:
        """Up to the first header, with every style's pattern: that header fixes the style."""
        for header in HEADER.finditer(text):
            group = header.lastgroup or ""
            style = STYLE_OF_GROUP[group]
            if style is Style.HASH and not hash_header_name(header.group(group), KNOWN_NAMES):
                continue
            self.style = style
            line = first_line + text.count("\n", 0, header.start())
            done = self._section_starts(header.group(group), line, text[: header.start()])
            if done is not None:
                yield done
            return header.end() + 1, line + 1
        return 0, first_line

    def finish(self) -> Iterator[Document]:
        self._close_section("")
        done = self._emit(self.take)
        if done is not None:
            yield done
        if self.held is not None:
            _map_deferred(self.held)
        if self.held is not None and not self.held.empty:
            if self.skipped_takes:
                self.report.warn(
                    self.held.first_line,
                    f"{self.skipped_takes} takes between take {MAX_TAKES - 1} and the last were not kept "
                    f"(the first {MAX_TAKES - 1} and the last are)",
                )
            yield self._document(self.held)
        if self.emitted == 0 and self.held is None:
            raise ParseError(1, "no snapshot sections found (headers such as `== /path ==` and their values)")

    def _carry(self, text: str) -> None:
        """Keep the open section's text until the block that ends it, up to `MAX_SECTION_CHARS`."""
        if self.cut or not text:
            return
        if self.carried_chars + len(text) > MAX_SECTION_CHARS:
            text = text[: max(MAX_SECTION_CHARS - self.carried_chars, 0)]
            self._cut()
        self.carried.append(text)
        self.carried_chars += len(text)

    def _cut(self) -> None:
        self.cut = True
        self.report.warn(
            self.name_line,
            f"section {self.name or 'before the first header'!r} is longer than "
            f"{MAX_SECTION_CHARS >> 20} MiB; read its first {MAX_SECTION_CHARS >> 20} MiB",
        )

    def _section_starts(self, name: str, line: int, before: str, framed: bool = False) -> Document | None:
        """Close the open section with `before`, the rest of its text; open `name`'s. `framed`: the
        text has the newline before it in front, not its own last one at the end (`_feed_split`)."""
        scalar = self.scalar
        if (
            scalar is not None
            and not self.carried
            and ": " not in before  # `cat: /x: No such file…` takes the general path
            and len(before) <= MAX_SECTION_CHARS
            and (self.emitted < MAX_TAKES - 1 or self.take.deferred is None)
            and "\n" not in (value := before.strip())
        ):
            # Most sections: one file's one value, whole in this block, in a take that is kept. The
            # general path puts the same value (a test holds the two equal), at several times the cost.
            self.take.put(scalar[0], scalar[1], value)
        elif framed:
            self._close_section(before[1:] + "\n" if before else "")
        else:
            self._close_section(before)
        found = opening(name)
        if found.marker is not None:
            self.name = self.scalar = None
            return self._next_take(line, found.marker)
        done = None
        take = self.take
        if found.key in take.seen:
            done = self._next_take(line, None)
            take = self.take
        take.seen.add(found.key)
        self.name, self.name_line, self.scalar = name, line, found.scalar
        return done

    def _close_section(self, rest: str) -> None:
        if self.carried:
            if not self.cut:
                self._carry(rest)
            body = "".join(self.carried)
            self.carried, self.carried_chars = [], 0
        else:
            body = rest
            if len(body) > MAX_SECTION_CHARS:
                body = body[:MAX_SECTION_CHARS]
                self._cut()
        self.cut = False
        if self.name is None and not body.strip():
            return
        take = self.take
        if self.emitted >= MAX_TAKES - 1 and take.deferred is not None:
            # Past the takes always kept: this one is kept only if it turns out to be the last, so
            # its sections wait (a script run in a loop into one file leaves thousands of takes).
            take.deferred.append((self.name, self.name_line, body))
            take.deferred_chars += len(body)
            if take.deferred_chars > MAX_DEFERRED_CHARS:
                _map_deferred(take)
        elif self.scalar is None or not self._put_scalar(body):
            take.line = self.name_line
            read_section_once(take, self.name, body)
        self.name = self.scalar = None

    def _put_scalar(self, body: str) -> bool:
        """One value, no error, under a file's header: what `_section_starts` puts at once when it can."""
        if self.scalar is None or ": " in body:  # `cat: /x: No such file…` takes the full path
            return False
        value = body.strip()
        if "\n" in value:
            return False
        self.take.put(self.scalar[0], self.scalar[1], value)
        return True

    def _next_take(self, line: int, marker: Marker | None) -> Document | None:
        label = marker.label if marker else None
        taken_at = marker.taken_at_ns if marker else None
        if self.take.empty:
            self.take.label, self.take.taken_at_ns, self.take.first_line = label, taken_at, line
            return None
        done = self._emit(self.take)
        self.take = Take(self.report, self.take.index + 1, line, label, taken_at, deferred=[])
        return done

    def _emit(self, take: Take) -> Document | None:
        if take.empty:
            return None
        if self.emitted < MAX_TAKES - 1:
            self.emitted += 1
            return self._document(take)
        if self.held is not None:
            self.skipped_takes += 1
        self.held = take
        return None

    def _document(self, take: Take) -> Document:
        if take.keys_dropped:
            self.report.warn(
                take.first_line,
                f"take {take.index + 1}: {take.keys_dropped:,} values past the first {MAX_KEYS:,} "
                "were not kept",
            )
        content: dict[str, Any] = take.document(self.style.value if self.style else None)
        return Document(take.first_line, KIND, content)


def _map_deferred(take: Take) -> None:
    """Map the sections a take held back, and map the rest of it as it is read."""
    for name, line, body in take.deferred or ():
        take.line = line
        read_section_once(take, name, body)
    take.deferred, take.deferred_chars = None, 0


def parse_snapshot_text(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    lines = TextLines(stream)
    reader = SnapshotReader(report)
    checked = False
    for first_line, block in lines.blocks():
        if not checked:
            _check_text(lines.head)
            checked = True
        yield from reader.feed(first_line, block.decode("utf-8", "replace"))
    tail = lines.last_line()  # a last line without its newline is still a value
    if not checked:
        _check_text(lines.head)
    if tail is not None:
        yield from reader.feed(lines.number, tail.decode("utf-8", "replace"))
    if lines.cut_short:
        report.truncated = True
        report.warn(lines.partial_line, "the compressed stream ends early; read what came before")
    yield from reader.finish()


def _check_text(head: bytes) -> None:
    """Refuse a perf.data file or binary data; a few NULs are text here (a raw `/proc/PID/environ`)."""
    if looks_like_perf_data(head):
        raise ParseError(0, PERF_DATA_MESSAGE)
    if head.count(b"\0") * 50 > len(head):
        raise ParseError(
            0, "this is binary data, not a text snapshot (compressed with something other than gzip or zstd?)"
        )
