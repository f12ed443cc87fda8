"""The command line: flags, help with examples, and the dispatch to each command."""

from __future__ import annotations

import argparse
import os
from typing import Sequence

from stallscope_collect import COLLECTOR
from stallscope_collect.console import Console
from stallscope_collect.exit_status import EXIT_USAGE
from stallscope_collect.files import data_home, default_spool
from stallscope_collect.formatting import parse_size
from stallscope_collect.perf.filters import parse_syscall_list
from stallscope_collect.record.command import cmd_record
from stallscope_collect.upload.commands import cmd_flush, cmd_upload
from stallscope_collect.upload.sender import RETRY_AFTER_MAX_S
from stallscope_collect.watch.command import cmd_watch

KINDS = (
    "cpu",
    "offcpu",
    "syscalls",
    "faults",
    "functions",
    "proc",
    "proc-stacks",
    "metrics",
    "app-metrics",
    "snapshot",
    "profile",
)


RECORD_EPILOG = """\
examples:
  # 30 s of CPU and off-CPU stacks, /proc samples and a snapshot of process 4242, uploaded:
  STALLSCOPE_TOKEN=... stallscope-collect record --server https://stallscope.example --incident 12 --pid 4242

  # everything on the host, with page faults and slow syscalls, kept locally:
  stallscope-collect record --all --cpu --offcpu --faults --syscalls futex,fsync,mmap --output /var/tmp/inc12

  # only /proc and the snapshot (no perf), plus the application's own metrics every 2 s:
  stallscope-collect record --pid 4242 --no-perf --metrics-cmd 'curl -s localhost:9100/metrics' \\
      --metrics-interval 2 --output /var/tmp/inc12-app

  # where perf cannot trace the scheduler: each thread's kernel stack from /proc, 10 times a second
  sudo stallscope-collect record --pid 4242 --no-perf --proc-stacks --stacks-hz 10 \\
      --output /var/tmp/inc12-stacks

Exit status: 0 done, 1 error, 2 usage, 3 recorded but some uploads wait in the spool.
"""

UPLOAD_EPILOG = """\
examples:
  stallscope-collect upload cpu.perf.txt --kind cpu --clock clock.json --server URL --incident 12
  stallscope-collect upload mpstat.txt iostat.txt --kind metrics --server URL --incident 12 --host db-7
"""

WATCH_EPILOG = """\
examples:
  # a one-off test run: two rounds a minute apart, kept locally, each round's cost in its log line
  sudo stallscope-collect watch --rounds 2 --interval 60 --output /var/tmp/watch-test

  # what the systemd unit runs (collectors/systemd/stallscope-collect-watch.service):
  STALLSCOPE_TOKEN=... stallscope-collect watch --server https://stallscope.example \\
      --spool /var/lib/stallscope-collect/spool --output /var/lib/stallscope-collect/watch

  # installed as a service, the token in a file only root reads:
  sudo install -D -m 755 stallscope-collect.pyz /usr/local/lib/stallscope/stallscope-collect.pyz
  sudo install -m 644 stallscope-collect-watch.service /etc/systemd/system/
  printf 'STALLSCOPE_SERVER=https://stallscope.example\\nSTALLSCOPE_TOKEN=...\\n' \\
      | sudo install -D -m 600 /dev/stdin /etc/stallscope/collect-watch.env
  sudo systemctl enable --now stallscope-collect-watch
  journalctl -u stallscope-collect-watch -f          # one line per round

  # 20 s of CPU samples every 10 minutes and no off-CPU window:
  stallscope-collect watch --server URL --interval 600 --cpu-seconds 20 --offcpu-seconds 0

Exit status: 0 stopped by SIGTERM/SIGINT (or --rounds done), 1 error, 2 usage, 3 --rounds done but
some uploads wait in the spool.
"""

FLUSH_EPILOG = """\
examples:
  stallscope-collect flush                         # each capture goes where it was meant to go
  stallscope-collect flush --server https://other  # send them all to another console
"""


def _add_upload_flags(
    p: argparse.ArgumentParser, with_server: bool = True, retries: int = 5, timeout: float = 120.0
) -> None:
    if with_server:
        p.add_argument(
            "--server",
            default=os.environ.get("STALLSCOPE_SERVER"),
            metavar="URL",
            help="the Stallscope console, e.g. https://stallscope.example (default: $STALLSCOPE_SERVER)",
        )
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="read the upload token from FILE's first line (default: $STALLSCOPE_TOKEN)",
    )
    p.add_argument("--spool", metavar="DIR", help=f"where unsent captures wait (default: {default_spool()})")
    p.add_argument(
        "--retries",
        type=int,
        default=retries,
        help=f"retries on connection errors, timeouts, 429 and 5xx (default: {retries})",
    )
    p.add_argument(
        "--retry-delay",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="first backoff delay; doubles each retry, with jitter, capped at 30 s; a console's "
        f"Retry-After is followed instead, up to {RETRY_AFTER_MAX_S:g} s (default: 1)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=timeout,
        metavar="SECONDS",
        help=f"socket timeout (default: {timeout:g})",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="only warnings and errors")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stallscope-collect",
        description="Record what a Linux server does during a latency incident and upload it to Stallscope.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run `stallscope-collect COMMAND --help` for each command's flags and examples.",
    )
    parser.add_argument("--version", action="version", version=COLLECTOR)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rec = sub.add_parser(
        "record",
        help="record perf, /proc samples and a snapshot, then upload",
        description=(
            "Record for --duration seconds: perf (CPU stacks at 49 Hz and off-CPU scheduler events "
            "by default), /proc samples at 20 Hz, a system snapshot and clock anchors; turn perf's "
            "data into text; upload everything when --server is given (keeping it in the spool until "
            "the server has it)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=RECORD_EPILOG,
    )
    rec.add_argument(
        "--server",
        default=os.environ.get("STALLSCOPE_SERVER"),
        metavar="URL",
        help="upload to this console when done (default: $STALLSCOPE_SERVER; none: keep locally)",
    )
    rec.add_argument("--incident", type=int, metavar="ID", help="the incident the captures belong to")
    target = rec.add_argument_group("target (one of)")
    target.add_argument(
        "--pid",
        action="append",
        metavar="PID",
        help="process to record; repeat or comma-separate for several",
    )
    target.add_argument("--all", action="store_true", help="the whole host")
    rec.add_argument("--duration", type=float, default=30.0, metavar="SECONDS", help="default: 30")
    rec.add_argument(
        "--max-duration",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="refuse longer --duration (default: 600)",
    )
    modes = rec.add_argument_group("perf modes (default: --cpu --offcpu)")
    modes.add_argument("--cpu", action="store_true", help="on-CPU stacks: perf record -F HZ -g")
    modes.add_argument(
        "--offcpu",
        action="store_true",
        help="off-CPU stacks: sched:sched_switch, sched:sched_wakeup, sched:sched_waking with -g",
    )
    modes.add_argument("--faults", action="store_true", help="a stack per page fault: -e page-faults -c 1 -g")
    modes.add_argument(
        "--syscalls",
        type=parse_syscall_list,
        metavar="LIST",
        help="durations of these syscalls, e.g. futex,fsync,mmap (perf trace)",
    )
    modes.add_argument(
        "--no-perf", action="store_true", help="no perf at all: /proc sampler and snapshot only"
    )
    modes.add_argument(
        "--cpu-hz", type=int, default=49, metavar="HZ", help="CPU sampling rate (default: 49, max 99)"
    )
    modes.add_argument("--allow-high-frequency", action="store_true", help="allow --cpu-hz above 99")
    other = rec.add_argument_group("sampler, snapshot, metrics")
    other.add_argument(
        "--sample-hz", type=float, default=20.0, metavar="HZ", help="/proc sampler rate (default: 20)"
    )
    other.add_argument("--no-proc", action="store_true", help="no /proc sampler")
    other.add_argument(
        "--proc-stacks",
        action="store_true",
        help="kernel stacks of the targets' threads from /proc/PID/task/TID/stack (with --all: of "
        "threads in state D); needs root",
    )
    other.add_argument(
        "--stacks-hz", type=float, default=5.0, metavar="HZ", help="--proc-stacks rate (default: 5)"
    )
    other.add_argument("--no-snapshot", action="store_true", help="no system snapshot")
    other.add_argument(
        "--metrics-cmd",
        metavar="CMD",
        help="shell command printing JSON lines or `name value` lines, run every interval",
    )
    other.add_argument("--metrics-interval", type=float, default=1.0, metavar="SECONDS", help="default: 1")
    where = rec.add_argument_group("where")
    where.add_argument("--host", metavar="NAME", help="host name to report (default: this host's name)")
    where.add_argument(
        "--output",
        metavar="DIR",
        help=f"directory for the files (default: {data_home()}/captures/<time>-<host>)",
    )
    where.add_argument(
        "--min-free",
        type=parse_size,
        default=parse_size("256M"),
        metavar="SIZE",
        help="refuse to start, or stop early, to keep this much disk free (default: 256M)",
    )
    where.add_argument("--dry-run", action="store_true", help="print the commands that would run, then exit")
    _add_upload_flags(rec, with_server=False)

    up = sub.add_parser(
        "upload",
        help="upload captures taken by hand",
        description="Compress and upload files (perf script text, perf trace text, metrics…) to an incident.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=UPLOAD_EPILOG,
    )
    up.add_argument("files", nargs="+", metavar="FILE")
    up.add_argument("--incident", type=int, required=True, metavar="ID")
    up.add_argument("--kind", required=True, choices=KINDS)
    up.add_argument("--host", metavar="NAME", help="host the files come from (default: this host's name)")
    up.add_argument("--clock", metavar="FILE", help="clock.json written by `record`, to align perf times")
    _add_upload_flags(up)

    _add_watch_parser(sub)

    fl = sub.add_parser(
        "flush",
        help="send everything waiting in the spool",
        description="Send every spooled capture to the server it was meant for (or to --server).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=FLUSH_EPILOG,
    )
    fl.add_argument(
        "--server", metavar="URL", help="send every capture here instead (default: each one's own)"
    )
    _add_upload_flags(fl, with_server=False)
    return parser


def _add_watch_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    w = sub.add_parser(
        "watch",
        help="short captures every few minutes, uploaded to the host's watch stream (a service)",
        description=(
            "Every --interval seconds (the first round at once, the others on the interval's grid):\n"
            "--cpu-seconds of CPU stacks at 49 Hz and, beside them, --offcpu-seconds of scheduler\n"
            "events, both system-wide with record's perf commands; the /proc sampler over the CPU\n"
            "window; the system snapshot in the first round and whenever it changed.\n\n"
            "With --server each round goes through the spool to the host's watch stream (kept while\n"
            "the console is unreachable, older rounds sent first); without, rounds stay in --output.\n"
            "One log line per round. SIGTERM or SIGINT ends it after the current round, cut short."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=WATCH_EPILOG,
    )
    w.add_argument(
        "--server",
        default=os.environ.get("STALLSCOPE_SERVER"),
        metavar="URL",
        help="send every round to this console's watch stream "
        "(default: $STALLSCOPE_SERVER; none: keep the rounds locally)",
    )
    when = w.add_argument_group("rounds")
    when.add_argument(
        "--interval", type=float, default=300.0, metavar="SECONDS", help="one round every … (default: 300)"
    )
    when.add_argument(
        "--cpu-seconds",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="CPU window: perf record -F HZ -g -a, and the /proc sampler (default: 10)",
    )
    when.add_argument(
        "--offcpu-seconds",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="off-CPU window, beside the CPU one: sched_switch/wakeup/waking with -g -a; "
        "0: none (default: 3)",
    )
    when.add_argument(
        "--rounds", type=int, metavar="N", help="stop after N rounds (default: run until stopped)"
    )
    when.add_argument(
        "--cpu-hz", type=int, default=49, metavar="HZ", help="CPU sampling rate (default: 49, max 99)"
    )
    when.add_argument("--allow-high-frequency", action="store_true", help="allow --cpu-hz above 99")
    when.add_argument(
        "--sample-hz", type=float, default=20.0, metavar="HZ", help="/proc sampler rate (default: 20)"
    )
    where = w.add_argument_group("where")
    where.add_argument("--host", metavar="NAME", help="host name to report (default: this host's name)")
    where.add_argument(
        "--output",
        metavar="DIR",
        help=f"a directory per round goes here (default: {data_home()}/watch/<host>)",
    )
    where.add_argument(
        "--keep-local",
        type=int,
        default=3,
        metavar="N",
        help="with --server, keep the newest N round directories once sent; unsent ones are never "
        "removed (default: 3)",
    )
    where.add_argument(
        "--min-free",
        type=parse_size,
        default=parse_size("256M"),
        metavar="SIZE",
        help="skip a round, or end it early, to keep this much disk free (default: 256M)",
    )
    # A round is short and the next one sends whatever is left: an upload should not hold the rounds
    # up for minutes, as record's 5 retries of 120 s could against a console that drops packets.
    _add_upload_flags(w, with_server=False, retries=2, timeout=30.0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    console = Console(quiet=args.quiet)
    if args.command in ("upload",) and not args.server:
        console.error("--server is required (or set STALLSCOPE_SERVER)")
        return EXIT_USAGE
    try:
        if args.command == "record":
            return cmd_record(args, console)
        if args.command == "upload":
            return cmd_upload(args, console)
        if args.command == "watch":
            return cmd_watch(args, console)
        return cmd_flush(args, console)
    except KeyboardInterrupt:
        console.error("interrupted")
        return 130
