"""`stallscope collapse FILE`: folded stacks on stdout, the same parser the server runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stallscope.export.folded import FoldOptions, collapse_file, write_folded
from stallscope.ingest.model import ParseError

MAX_WARNINGS_SHOWN = 10


def run_collapse(args: argparse.Namespace) -> int:
    options = fold_options(args)
    if args.state and not args.offcpu:
        args.offcpu = True  # a scheduler state only means something for off-CPU time
    try:
        offcpu = args.offcpu or _is_scheduler_capture(args.file)
    except OSError as exc:
        return _unreadable(args.file, exc)
    if offcpu:
        return _collapse_off_cpu(args, options)
    return _collapse_cpu(args, options)


def _unreadable(path: Path, exc: ParseError | OSError) -> int:
    """One line naming the file and why it gave nothing: missing, unreadable, corrupt, not perf script."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    print(f"stallscope: {path}: {reason}", file=sys.stderr)
    return 1


def fold_options(args: argparse.Namespace) -> FoldOptions:
    return FoldOptions(
        pid=args.pid,
        tid=args.tid,
        kernel=args.kernel,
        jit=args.jit,
        all=args.all,
        addrs=args.addrs,
        event=args.event,
    )


def _is_scheduler_capture(path: Path) -> bool:
    from stallscope.commands.local_file import open_local_capture

    try:
        with open_local_capture(path) as capture:
            return capture.format == "perf-sched"
    except ParseError:
        return False  # the CPU path says what is wrong with the file


def _collapse_off_cpu(args: argparse.Namespace, options: FoldOptions) -> int:
    from stallscope.commands.local_file import open_local_capture
    from stallscope.export.offcpu_folded import fold_off_cpu

    try:
        with open_local_capture(args.file) as capture:
            fold = fold_off_cpu(capture.records(), options, args.state)
            report = capture.report
    except (ParseError, OSError) as exc:
        return _unreadable(args.file, exc)
    write_folded(fold.counts, sys.stdout.buffer)
    sys.stdout.flush()
    print(
        f"stallscope: {args.file}: off-CPU time in microseconds from {fold.intervals:,} intervals"
        + (f" in state {args.state}" if args.state else "")
        + (
            f"; {fold.unclosed:,} unclosed intervals have no duration and are left out"
            if fold.unclosed
            else ""
        ),
        file=sys.stderr,
    )
    for warning in report.warnings[:MAX_WARNINGS_SHOWN]:
        print(f"stallscope: {args.file}: line {warning.line}: {warning.message}", file=sys.stderr)
    if not fold.counts:
        print(f"stallscope: {args.file}: no off-CPU intervals found", file=sys.stderr)
        return 1
    return 0


def _collapse_cpu(args: argparse.Namespace, options: FoldOptions) -> int:
    try:
        report = collapse_file(args.file, options, sys.stdout.buffer)
    except BrokenPipeError:
        raise  # stdout's reader went away (`| head`), not the file: the command line handles it
    except (ParseError, OSError) as exc:
        return _unreadable(args.file, exc)
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
