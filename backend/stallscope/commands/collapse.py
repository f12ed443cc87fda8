"""`stallscope collapse FILE`: folded stacks on stdout, the same parser the server runs."""

from __future__ import annotations

import argparse
import sys

from stallscope.export.folded import FoldOptions, collapse_file
from stallscope.ingest.model import ParseError

MAX_WARNINGS_SHOWN = 10


def run_collapse(args: argparse.Namespace) -> int:
    options = FoldOptions(
        pid=args.pid,
        tid=args.tid,
        kernel=args.kernel,
        jit=args.jit,
        all=args.all,
        addrs=args.addrs,
        event=args.event,
    )
    try:
        report = collapse_file(args.file, options, sys.stdout.buffer)
    except ParseError as exc:
        print(f"stallscope: {args.file}: {exc}", file=sys.stderr)
        return 1
    sys.stdout.flush()
    for warning in report.warnings[:MAX_WARNINGS_SHOWN]:
        print(f"stallscope: {args.file}: line {warning.line}: {warning.message}", file=sys.stderr)
    hidden = len(report.warnings) - MAX_WARNINGS_SHOWN + report.suppressed_warnings
    if hidden > 0:
        print(f"stallscope: {args.file}: {hidden} more warnings (see `stallscope inspect`)", file=sys.stderr)
    if report.samples == 0:
        print(f"stallscope: {args.file}: no samples found", file=sys.stderr)
        return 1
    return 0
