"""`stallscope configdiff A [B]`: which settings differ between two system snapshots, without a server.

The files are read by the importers the server runs (the collector's JSON or a text snapshot) and
compared by the analysis the console's config diff view runs (`stallscope.analysis.config_diff`).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stallscope.analysis.config_diff import ConfigDiff, KeyChange

HELP = "compare two system snapshots (or a snapshot's start and end): changed settings first"
DESCRIPTION = """\
Compare the configuration in two system snapshots without a server: THP, cpufreq governors, vm.*
sysctls, enabled trace events and probes, BPF programs, environments, cgroup limits, mounts,
kernel version and config. Changed settings come first, then added and removed ones; unchanged
ones are counted (listed with --all). Values are compared after normalisation: THP
`always [madvise] never` reads `madvise`, processes are matched by name rather than pid.

Inputs: the collector's snapshot.json, or a plain-text snapshot (`== /path ==`, `# path` or
`---- name ----` sections, `sysctl -a`, `grep -r . /proc/sys/vm`); plain, .gz or .zst. A text
file may hold several takes (`==== start ====` ... `==== end ====`, or the same sections twice).
With one file, its first take is compared with its last.

examples:
  stallscope configdiff healthy.txt impacted.txt
  stallscope configdiff snapshot.txt                  # start against end
  stallscope configdiff a.json b.txt --take-b last --json | jq '.changed'"""

MAX_VALUE_CHARS = 80


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments on its sub-parser."""
    parser.add_argument("a", type=Path, metavar="A", help="the baseline snapshot file")
    parser.add_argument("b", type=Path, metavar="B", nargs="?", help="the snapshot compared with it")
    parser.add_argument("--take-a", type=_take, metavar="N", help="A's take: 1, 2… or last (default 1)")
    parser.add_argument(
        "--take-b", type=_take, metavar="N", help="B's take: 1, 2… or last (default 1; last with one file)"
    )
    parser.add_argument("--all", action="store_true", help="list unchanged settings too")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _take(text: str) -> int:
    """A 1-based take number, or -1 for the last."""
    if text == "last":
        return -1
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected 1, 2… or last, got {text!r}")
    return int(text)


class InputError(Exception):
    """A problem with what was asked for, reported as one line naming the file."""


@dataclass(frozen=True, slots=True)
class Side:
    label: str
    path: Path
    take: int
    """1-based."""
    takes: int
    document: dict[str, Any]

    def describe(self) -> dict[str, Any]:
        meta = self.document.get("take")
        return {
            "file": str(self.path),
            "take": self.take,
            "takes": self.takes,
            "label": meta.get("label") if isinstance(meta, dict) else None,
            "host": self.document.get("host"),
            "taken_at_ns": self.document.get("taken_at_ns"),
        }


def run(args: argparse.Namespace) -> int:
    from stallscope.analysis.config_diff import diff_snapshots

    one_file = args.b is None
    try:
        read_a = _read(args.a)
        read_b = read_a if one_file else _read(args.b)
        if one_file and len(read_a.documents) == 1:
            raise InputError(f"{args.a}: holds one take; give a second file to compare with")
        a = _side("A", read_a, args.take_a or 1)
        b = _side("B", read_b, args.take_b or (-1 if one_file else 1))
    except InputError as exc:
        print(f"stallscope configdiff: {exc}", file=sys.stderr)
        return 1
    for read in (read_a,) if one_file else (read_a, read_b):
        for warning in read.warnings:
            print(f"stallscope configdiff: {read.path}: {warning}", file=sys.stderr)
    result = diff_snapshots(a.document, b.document)
    if args.json:
        out = {"a": a.describe(), "b": b.describe(), **result.as_dict()}
        if not args.all:
            out["unchanged"] = len(result.unchanged)
        json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print("\n".join(text_lines(a, b, result, args.all)))
    return 0


@dataclass(frozen=True, slots=True)
class Read:
    """Every take of one snapshot file, and what its importer warned of."""

    path: Path
    documents: list[dict[str, Any]]
    warnings: list[str]


def _read(path: Path) -> Read:
    from stallscope.commands.local_file import open_local_capture
    from stallscope.ingest.model import Document, ParseError
    from stallscope.ingest.snapshot.model import KIND

    try:
        with open_local_capture(path) as capture:
            documents = [
                record.content
                for record in capture.records()
                if isinstance(record, Document) and record.kind == KIND
            ]
            warnings = [str(w) for w in capture.report.warnings]
    except (OSError, EOFError, ParseError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"{path}: {reason}") from exc
    if not documents:
        raise InputError(f"{path}: not a system snapshot (read as {capture.format})")
    return Read(path, documents, warnings)


def _side(label: str, read: Read, take: int) -> Side:
    count = len(read.documents)
    index = count if take == -1 else take
    if index > count:
        raise InputError(f"{read.path}: has {count} take{'s' if count > 1 else ''}, not {take}")
    return Side(label, read.path, index, count, read.documents[index - 1])


def text_lines(a: Side, b: Side, result: ConfigDiff, show_all: bool) -> list[str]:
    lines = [f"A: {_title(a)}", f"B: {_title(b)}", ""]
    if not result.differs:
        lines.append("no setting differs")
    for title, rows in (
        ("changed", result.changed),
        ("added in B", result.added),
        ("removed in B", result.removed),
    ):
        if rows:
            lines.append(f"{title} ({len(rows)}):")
            lines.extend(_row(row) for row in rows)
            lines.append("")
    if show_all and result.unchanged:
        lines.append(f"unchanged ({len(result.unchanged)}):")
        lines.extend(_row(row) for row in result.unchanged)
        lines.append("")
    else:
        lines.append(f"{len(result.unchanged)} settings unchanged (--all lists them)")
    for side, only in (("A", result.only_in_a), ("B", result.only_in_b)):
        if only:
            parts = [f"{o.section} ({'all' if o.whole_section else o.count})" for o in only]
            lines.append(f"read on {side} only, not compared: {', '.join(parts)}")
    return lines


def _title(side: Side) -> str:
    meta = side.describe()
    parts = [str(side.path)]
    if side.takes > 1:
        parts.append(f"take {side.take} of {side.takes}" + (f" ({meta['label']})" if meta["label"] else ""))
    if meta["host"]:
        parts.append(f"host {meta['host']}")
    return ", ".join(parts)


def _row(row: KeyChange) -> str:
    key = f"  {row.section}: {row.key}"
    if row.status == "changed":
        text = f"{key}: {_value(row.a, row.a_note)} -> {_value(row.b, row.b_note)}"
    elif row.status == "added":
        text = f"{key} = {_value(row.b, row.b_note)}"
    elif row.status == "removed":
        text = f"{key} (was {_value(row.a, row.a_note)})"
    else:
        text = f"{key} = {_value(row.a, row.a_note)}"
    return f"{text}\n      why it matters: {row.hint}" if row.hint and row.status != "unchanged" else text


def _value(value: str | None, note: str | None) -> str:
    if value is None:
        return f"unreadable ({note})" if note else "unreadable"
    one_line = value.replace("\n", " | ")
    return one_line if len(one_line) <= MAX_VALUE_CHARS else one_line[: MAX_VALUE_CHARS - 1] + "…"
