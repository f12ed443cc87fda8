"""`stallscope collapse FILE`: folded stacks on stdout, from any stack format the server reads.

CPU samples, collapsed stacks, DTrace aggregations, systemtap faults and the other event formats fold
as `export.capture_folded` says; a scheduler capture (or `--offcpu`) gives off-CPU time in µs. When
nothing could be folded the command says why and exits 1: empty output with status 0 would read as
"no stacks were hot" to whoever pipes it into flamegraph.pl.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from stallscope.export.capture_folded import Collapse, collapse_capture
from stallscope.export.folded import FoldOptions, write_folded
from stallscope.ingest.model import ParseError, ParseReport

MAX_WARNINGS_SHOWN = 10
SCHEDULER_FORMAT = "perf-sched"


def run_collapse(args: argparse.Namespace) -> int:
    options = fold_options(args)
    if args.state and not args.offcpu:
        args.offcpu = True  # a scheduler state only means something for off-CPU time
    try:
        format_name = _format_of(args.file)
    except (ParseError, OSError) as exc:
        return _unreadable(args.file, exc)
    if args.offcpu or format_name == SCHEDULER_FORMAT:
        return _collapse_off_cpu(args, options)
    return _collapse_stacks(args, options)


def _unreadable(path: Path, exc: ParseError | OSError) -> int:
    """One line naming the file and why it gave nothing: missing, unreadable, corrupt, not a capture."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return _nothing(path, reason)


def _nothing(path: Path, reason: str) -> int:
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


def _format_of(path: Path) -> str:
    from stallscope.commands.local_file import open_local_capture

    with open_local_capture(path) as capture:
        return capture.format


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
    _print_warnings(args.file, report)
    if not fold.counts:
        return _nothing(args.file, "no off-CPU intervals found")
    return 0


def _collapse_stacks(args: argparse.Namespace, options: FoldOptions) -> int:
    # The cyclic garbage collector would walk every parsed stack and frame again and again (about 6%
    # of the command on a deep capture), and the fold leaves no cycles for it to find: this process
    # ends with the command.
    gc.disable()
    try:
        collapse = collapse_capture(args.file, options, sys.stdout.buffer)
    except BrokenPipeError:
        raise  # stdout's reader went away (`| head`), not the file: the command line handles it
    except (ParseError, OSError) as exc:
        return _unreadable(args.file, exc)
    finally:
        gc.enable()
    sys.stdout.flush()
    _print_warnings(args.file, collapse.report)
    if not collapse.result.counts:
        return _nothing(args.file, why_nothing(collapse, options))
    return 0


def _print_warnings(path: Path, report: ParseReport) -> None:
    for warning in report.warnings[:MAX_WARNINGS_SHOWN]:
        print(f"stallscope: {path}: {warning}", file=sys.stderr)
    hidden = len(report.warnings) - MAX_WARNINGS_SHOWN + report.suppressed_warnings
    if hidden > 0:
        print(f"stallscope: {path}: {hidden} more warnings (see `stallscope inspect`)", file=sys.stderr)


def why_nothing(collapse: Collapse, options: FoldOptions) -> str:
    """The reason a fold wrote no line, in the words of what the file held."""
    counts, result, report = collapse.counts, collapse.result, collapse.report
    fmt = f"`{collapse.format}`"
    if counts.samples + counts.events == 0:
        if counts.other:
            return f"nothing to fold: a {fmt} capture holds metrics, not stacks"
        if counts.off_cpu:
            return f"nothing to fold: a {fmt} capture of off-CPU intervals; use --offcpu"
        return f"nothing to fold: no samples or events found in this {fmt} capture"
    if result.samples == 0:  # `--event` named an event the file does not have
        found = ", ".join(f"{event} ({n:,})" for event, n in sorted(result.skipped_events.items()))
        return f"nothing to fold: no samples of event {options.event!r}; the file has {found}"
    what = "samples" if counts.samples else "events"
    reason = f"nothing to fold: none of the {result.samples:,} {what} of {result.event!r} has a stack"
    if report.dropped_lines:
        reason += f" ({report.dropped_lines:,} lines could not be read: see the warnings above)"
    elif counts.events:
        reason += " (record them with a call graph: perf trace --call-graph dwarf, stap print_ubacktrace)"
    return reason
