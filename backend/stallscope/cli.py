"""The `stallscope` command: run the console, load captures, and read them without a server."""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

DEFAULT_SERVER = "http://127.0.0.1:8000"
SERVER_HELP = "the console's address (default %(default)s, or STALLSCOPE_SERVER)"


def _server_default() -> str:
    return os.environ.get("STALLSCOPE_SERVER", DEFAULT_SERVER)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.data_dir:
        os.environ["STALLSCOPE_DATA_DIR"] = str(args.data_dir)
    if args.port:
        os.environ["STALLSCOPE_PORT"] = str(args.port)
    if args.host:
        os.environ["STALLSCOPE_HOST"] = args.host
    from stallscope.console import serve
    from stallscope.datadir_lock import DataDirInUse
    from stallscope.fast_exit import leave

    try:
        code = serve(with_worker=not args.no_worker, verbose=args.verbose)
    except DataDirInUse as exc:
        print(f"stallscope: {exc}", file=sys.stderr)
        return 1
    return leave(code)  # every part is stopped: the interpreter's teardown would only add seconds


def cmd_worker(args: argparse.Namespace) -> int:
    from stallscope.config import get_settings
    from stallscope.console import ensure_database
    from stallscope.health.heartbeat import WorkerHeartbeat
    from stallscope.worker import configure_celery, exit_at_once, quiet_worker_arguments

    own_database = not get_settings().database_url
    settings = ensure_database(get_settings())
    assert settings.database_url is not None
    app = configure_celery()
    heartbeat = WorkerHeartbeat(settings.database_url, args.concurrency)
    heartbeat.start()
    options = [
        f"--concurrency={args.concurrency}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    try:
        if args.quiet:
            app.worker_main([*quiet_worker_arguments(), *options])
        else:
            app.worker_main(["worker", "--loglevel=INFO", *options])
    finally:
        heartbeat.stop()
    if not own_database:  # no embedded server of its own to let go of at exit
        exit_at_once()
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from stallscope.config import get_settings
    from stallscope.console import ensure_database
    from stallscope.migrate import upgrade_to_head

    settings = ensure_database(get_settings())
    assert settings.database_url is not None
    upgrade_to_head(settings.database_url)
    print("database is at the latest schema")
    return 0


def cmd_upload(args: argparse.Namespace) -> int:
    from stallscope import client

    status = 0
    uploads: list[tuple[Path, dict[str, str | None]]] = []
    if args.clock:  # first: the host's other captures are aligned by it as they are parsed
        uploads.append((args.clock, {"fmt": "clock-anchors"}))
    given = {"fmt": args.format, "time_column": args.time_column, "kind": args.kind, "start": args.start}
    uploads += [(path, given) for path in args.files]
    for path, _ in uploads:  # a missing file fails the command before any other file is sent
        with open(path, "rb"):
            pass
    client.require_incident(args.server, args.incident)
    for path, options in uploads:
        capture = client.upload(
            args.server, args.incident, path, args.host, show_progress=not args.quiet, **options
        )
        print(f"{path}: capture {capture['id']} {capture['status']}")
        if args.wait:
            capture = client.wait_parsed(args.server, capture["id"], not args.quiet)
            print(_describe(capture))
            status = status or (1 if capture["status"] == "failed" else 0)
    return status


def _describe(capture: dict[str, object]) -> str:
    line = f"capture {capture['id']}: {capture['status']}, {capture['sample_count']} samples"
    if capture.get("dropped_lines"):
        line += f", {capture['dropped_lines']} lines dropped"
    if capture.get("error"):
        line += f"\n  error: {capture['error']}"
    return line


def cmd_reparse(args: argparse.Namespace) -> int:
    from stallscope import client

    capture = client.reparse(args.server, args.capture)
    print(f"capture {capture['id']} queued for re-parsing")
    if args.wait:
        capture = client.wait_parsed(args.server, args.capture, True)
        print(_describe(capture))
        return 1 if capture["status"] == "failed" else 0
    return 0


def cmd_user(args: argparse.Namespace) -> int:
    from stallscope.commands.users import run_user

    return run_user(args)


def cmd_token(args: argparse.Namespace) -> int:
    from stallscope.commands.tokens import run_token

    return run_token(args)


def cmd_collapse(args: argparse.Namespace) -> int:
    from stallscope.commands.collapse import run_collapse

    return run_collapse(args)


def cmd_inspect(args: argparse.Namespace) -> int:
    from stallscope.commands.inspect import run_inspect

    return run_inspect(args.file, as_json=args.json)


def cmd_export(args: argparse.Namespace) -> int:
    from stallscope.commands.bundles import run_export

    return run_export(args)


def cmd_import(args: argparse.Namespace) -> int:
    from stallscope.commands.bundles import run_import

    return run_import(args)


def cmd_analysis(args: argparse.Namespace) -> int:
    """diff, threads, heatmap, configdiff and findings: the module named by the command does the work."""
    import importlib

    module = importlib.import_module(f"stallscope.commands.{args.command}")
    result: int = module.run(args)
    return result


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stallscope",
        description="Stallscope: captures in, flame graphs out. Run `stallscope serve` to start the console.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(
        name: str,
        handler: Callable[[argparse.Namespace], int],
        help_text: str,
        description: str | None = None,
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name,
            help=help_text,
            description=description or help_text,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(handler=handler)
        return p

    p = add(
        "serve",
        cmd_serve,
        "start the console (API, worker, and the embedded database)",
        "Start the console at http://127.0.0.1:8000. Without DATABASE_URL an embedded PostgreSQL\n"
        "is started under the data directory (default ~/.local/share/stallscope, or\n"
        "STALLSCOPE_DATA_DIR), and the queue of parses lives in it too. It prints where it\n"
        "listens and where its data is; --verbose shows every part's log.\n\n"
        "Ctrl-C (or SIGTERM) stops everything in a few seconds, saying what it waits for; a\n"
        "parse still running after STALLSCOPE_STOP_GRACE_S (10 s) is cut short and parsed again\n"
        "at the next start.\n\n"
        "It keeps itself up: a worker or embedded database that dies is started again (with\n"
        "back-off, logged), parses a dead worker left behind are queued again, and files of\n"
        "uploads that never finished are swept. One console per data directory: a second one\n"
        "on the same directory refuses to start. GET /api/health answers 503 naming the part\n"
        "that is down.\n\n"
        "Reached by another name than localhost or --host? List it in STALLSCOPE_ALLOWED_HOSTS.",
    )
    p.add_argument("--data-dir", type=Path, metavar="DIR", help="where the database and raw uploads live")
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port to listen on (default 8000)")
    p.add_argument("--no-worker", action="store_true", help="run the API only (workers started elsewhere)")
    p.add_argument(
        "--verbose",
        action="store_true",
        help="also show the embedded database's, the migrations', the worker's and every request's log",
    )

    p = add(
        "worker",
        cmd_worker,
        "run a parse worker on its own (serve runs one itself)",
        "Run a parse worker (a Celery worker), as the production setup does beside\n"
        "`serve --no-worker`. Uses DATABASE_URL and CELERY_BROKER_URL, or the embedded database\n"
        "under STALLSCOPE_DATA_DIR.",
    )
    p.add_argument("--concurrency", type=int, default=1, metavar="N", help="parses at once (default 1)")
    p.add_argument(
        "--quiet", action="store_true", help="only warnings and errors (as `serve` runs it, unless --verbose)"
    )

    add(
        "migrate",
        cmd_migrate,
        "bring the database's tables up to date (serve does this itself)",
        "Apply the database migrations: on DATABASE_URL, or the embedded database under\n"
        "STALLSCOPE_DATA_DIR. `serve` does this at every start; run it yourself when the API and\n"
        "the workers run apart (docker-compose) and you upgrade them.",
    )

    p = add(
        "upload",
        cmd_upload,
        "upload capture files to an incident",
        "Upload captures (plain, .gz or .zst) to an incident: perf script, perf trace, ftrace, sched,\n"
        "sysstat, CSV or JSON-lines metrics, /proc stack dumps, text snapshots, clock anchors.\n\n"
        "Put perf captures on wall-clock time by recording on CLOCK_MONOTONIC and printing\n"
        "perf's wall-clock column (the console reads the offset from it):\n"
        "  perf record -k CLOCK_MONOTONIC -F 99 -a -g -- sleep 30\n"
        "  perf script -F +pid,+ip,+sym,+dso,+tod | gzip > cpu.txt.gz\n"
        "  stallscope upload cpu.txt.gz --incident 3 --host db-7 --wait\n\n"
        "or give the host's clock anchors (or a start time) with the upload:\n"
        "  stallscope upload sched.txt.gz --incident 3 --host db-7 --clock clock.csv\n"
        "  stallscope upload trace.txt --incident 3 --host db-7 --start 2026-11-25T14:02:10Z\n\n"
        "Credentials: STALLSCOPE_TOKEN, a personal API token (the Account page, or `stallscope user\n"
        "token NAME`) or a collector's upload token (`stallscope token create`).",
    )
    p.add_argument("files", type=Path, nargs="+", metavar="FILE")
    p.add_argument(
        "--incident",
        type=int,
        required=True,
        metavar="ID",
        help="the incident's number, as in its page's address (/incidents/ID)",
    )
    p.add_argument("--host", help="the host the capture was taken on")
    p.add_argument(
        "--format",
        metavar="NAME",
        help="the files' format, when it is not recognised by their content (e.g. perf-script)",
    )
    p.add_argument(
        "--time-column",
        metavar="C",
        help="CSV and JSON-lines files: the column (or key) holding the time, when it is not found",
    )
    p.add_argument(
        "--clock",
        type=Path,
        metavar="FILE",
        help="clock anchors of the host (CSV or JSON of CLOCK_MONOTONIC/CLOCK_REALTIME pairs, or the "
        "collector's clock.json), uploaded first: they put the host's perf and ftrace captures on "
        "wall-clock time",
    )
    p.add_argument("--kind", help="what the capture is, shown in the UI: cpu, offcpu, syscalls, faults…")
    p.add_argument(
        "--start",
        metavar="TIME",
        help="wall-clock start (ISO 8601, UTC unless a zone is given) for captures nothing else aligns",
    )
    p.add_argument("--server", default=_server_default(), metavar="URL", help=SERVER_HELP)
    p.add_argument("--wait", action="store_true", help="wait until parsing ends and print the result")
    p.add_argument("--quiet", action="store_true", help="no progress output")

    p = add(
        "reparse",
        cmd_reparse,
        "parse a stored capture again, replacing what its last parse stored",
        "Parse a stored capture again (after an upgrade of the parsers, say): what its last parse\n"
        "stored is replaced, never added to. Credentials: STALLSCOPE_TOKEN, as for upload.",
    )
    p.add_argument("capture", type=int, metavar="CAPTURE", help="the capture's number, as its page shows it")
    p.add_argument("--server", default=_server_default(), metavar="URL", help=SERVER_HELP)
    p.add_argument("--wait", action="store_true", help="wait until parsing ends")

    # Accepted before or after the action (`user --data-dir D list`, `user list --data-dir D`).
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument(
        "--data-dir",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="the console's data directory (its embedded database); default STALLSCOPE_DATA_DIR",
    )

    p = add(
        "token",
        cmd_token,
        "create, list and revoke upload-only tokens for collectors",
        "Upload tokens let `stallscope-collect` on other hosts send captures. Only a hash of each\n"
        "secret is stored: the secret is printed once, at creation. Works without a running\n"
        "console: on the embedded database under --data-dir (or STALLSCOPE_DATA_DIR), or on\n"
        "DATABASE_URL.\n\n"
        "examples:\n  stallscope token create --name 'db hosts'\n"
        "  stallscope token create --name db-7 --incident 12 --host db-7 --expires-in 14\n"
        "  stallscope token list\n"
        "  stallscope token revoke 3",
    )
    p.add_argument(
        "--data-dir", type=Path, default=argparse.SUPPRESS, metavar="DIR", help="the console's data directory"
    )
    token_sub = p.add_subparsers(dest="token_command", required=True, metavar="ACTION")
    create = token_sub.add_parser("create", help="create a token and print its secret", parents=[where])
    create.add_argument("--name", required=True, help="who or what uses it")
    create.add_argument("--incident", type=int, metavar="ID", help="only uploads to this incident")
    create.add_argument("--host", help="only uploads for this host")
    create.add_argument("--expires-in", type=float, metavar="DAYS", help="no uploads after this many days")
    token_sub.add_parser("list", help="list tokens (never their secrets)", parents=[where])
    revoke = token_sub.add_parser(
        "revoke", help="revoke a token: uploads with it are refused from then on", parents=[where]
    )
    revoke.add_argument("id", type=int, metavar="ID", help="the token's number, as `token list` shows it")

    p = add(
        "user",
        cmd_user,
        "create, list, reset, disable people's accounts (straight in the database)",
        "Accounts of the web console. Works without a running console: on the embedded database\n"
        "under --data-dir (or STALLSCOPE_DATA_DIR), or on DATABASE_URL. Passwords come from\n"
        "STALLSCOPE_PASSWORD or a prompt, never from an argument.\n\n"
        "roles: viewer (read), responder (create and edit incidents, upload, annotate, share,\n"
        "export), admin (people, tokens, retention, the audit log).\n\n"
        "examples:\n  stallscope user create alice --role responder\n"
        "  STALLSCOPE_PASSWORD=... stallscope user create ci-bot --role viewer\n"
        "  stallscope user list\n  stallscope user reset alice\n  stallscope user disable bob\n"
        "  stallscope user token alice --label laptop --expires-in 30",
    )
    p.add_argument(
        "--data-dir", type=Path, default=argparse.SUPPRESS, metavar="DIR", help="the console's data directory"
    )
    user_sub = p.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    u = user_sub.add_parser("create", help="create an account", parents=[where])
    u.add_argument("name")
    u.add_argument("--role", required=True, choices=["viewer", "responder", "admin"])
    u.add_argument("--email", help="for single sign-on matching and contact")
    user_sub.add_parser("list", help="list accounts", parents=[where])
    u = user_sub.add_parser(
        "reset", help="set a new password (signs the account out everywhere)", parents=[where]
    )
    u.add_argument("name")
    u = user_sub.add_parser(
        "disable", help="disable an account (its sessions end, its tokens stop)", parents=[where]
    )
    u.add_argument("name")
    u = user_sub.add_parser("enable", help="enable a disabled account again", parents=[where])
    u.add_argument("name")
    u = user_sub.add_parser("role", help="change an account's role", parents=[where])
    u.add_argument("name")
    u.add_argument("role", choices=["viewer", "responder", "admin"])
    u = user_sub.add_parser(
        "token", help="a personal API token for the CLI and scripts (STALLSCOPE_TOKEN)", parents=[where]
    )
    u.add_argument("name")
    u.add_argument("--label", default="cli", help="what the token is for (default %(default)s)")
    u.add_argument("--expires-in", type=float, default=90, metavar="DAYS", help="default %(default)s")

    p = add(
        "collapse",
        cmd_collapse,
        "print folded stacks of a perf script file (no server needed)",
        "Print folded stacks in stackcollapse-perf.pl's format, using the server's parser.\n"
        "A scheduler capture (sched_switch events) gives off-CPU stacks weighted by blocked time\n"
        "in microseconds, as Brendan Gregg's off-CPU flame graphs are.\n\n"
        "examples:\n  stallscope collapse cpu.txt.gz | flamegraph.pl > cpu.svg\n"
        "  stallscope collapse sched.txt.gz --state D | flamegraph.pl --countname=us > offcpu-D.svg",
    )
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--pid", action="store_true", help="include PID with process names")
    p.add_argument("--tid", action="store_true", help="include TID and PID with process names")
    p.add_argument("--kernel", action="store_true", help="annotate kernel functions with _[k]")
    p.add_argument("--jit", action="store_true", help="annotate jit functions with _[j]")
    p.add_argument("--all", action="store_true", help="all annotations (_[k], _[j], _[i])")
    p.add_argument("--addrs", action="store_true", help="include raw addresses where symbols are unknown")
    p.add_argument(
        "--event",
        metavar="NAME",
        help="event to keep (default: the first event in the file, as stackcollapse-perf.pl)",
    )
    p.add_argument(
        "--offcpu",
        action="store_true",
        help="off-CPU time by blocking stack, in µs (the default for scheduler captures)",
    )
    p.add_argument("--state", metavar="S", help="off-CPU only: keep one scheduler state, e.g. D or S")

    p = add("inspect", cmd_inspect, "describe a capture file: format, counts, time span, warnings")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    from stallscope.commands import bundles

    bundles.add_export_arguments(
        add("export", cmd_export, bundles.EXPORT_HELP, bundles.EXPORT_DESCRIPTION), _server_default()
    )
    bundles.add_import_arguments(
        add("import", cmd_import, bundles.IMPORT_HELP, bundles.IMPORT_DESCRIPTION), _server_default()
    )

    from stallscope.commands import configdiff, diff, findings, heatmap, threads

    for module in (diff, threads, heatmap, configdiff, findings):
        name = module.__name__.rsplit(".", 1)[1]
        module.add_arguments(add(name, cmd_analysis, module.HELP, module.DESCRIPTION))
    return parser


def main(argv: list[str] | None = None) -> int:
    from stallscope.console_log import CONSOLE_LOGGER, configure_logging

    args = build_parser().parse_args(argv)
    if args.handler is cmd_serve:
        configure_logging(verbose=args.verbose)
    elif args.handler in (cmd_user, cmd_token):
        # Their answer is a line or a secret: the database's start-up chatter would bury it.
        configure_logging(verbose=False)
        logging.getLogger(CONSOLE_LOGGER).setLevel(logging.WARNING)
    else:
        configure_logging(verbose=not (args.handler is cmd_worker and args.quiet))
    try:
        result: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()  # the reader went away (`stallscope collapse x | head`): nothing to report
        return 1
    except Exception as exc:
        if os.environ.get(DEBUG_ENV) or (args.command in CONSOLE_COMMANDS and not _expected(exc)):
            raise
        print(f"stallscope: {error_line(args, exc)}", file=sys.stderr)
        return 1
    return result


DEBUG_ENV = "STALLSCOPE_DEBUG"
CONSOLE_COMMANDS = frozenset({"serve", "worker", "migrate"})
"""The console itself: a failure there nobody foresaw is a bug, and its report needs the traceback."""


def _expected(exc: Exception) -> bool:
    """A failure of the console commands that is the setup's, not a bug: said in one line."""
    import sqlalchemy.exc

    from stallscope.ingest.model import ParseError

    return isinstance(exc, OSError | ParseError | sqlalchemy.exc.OperationalError) or _no_schema(exc)


def error_line(args: argparse.Namespace, exc: Exception) -> str:
    """One line for an error no command handled itself, naming the file or the server it concerns.

    Whatever the input, a person gets a sentence rather than a traceback; `STALLSCOPE_DEBUG=1`
    brings the traceback back for whoever debugs the command itself.
    """
    import httpx
    import sqlalchemy.exc

    from stallscope.client import ApiError
    from stallscope.ingest.model import ParseError
    from stallscope.kit.errors import ServiceError

    file = getattr(args, "file", None)
    where = f"{file}: " if isinstance(file, Path) else ""
    server = getattr(args, "server", None)
    console = f"the console at {server}" if server else "the console"
    if isinstance(exc, httpx.ConnectError):
        line = (
            f"cannot reach {console}: {_without_errno(exc)}. Is it running? "
            "(--server or STALLSCOPE_SERVER says where it is)"
        )
    elif isinstance(exc, httpx.TimeoutException):
        line = f"{console} did not answer in time; it may be overloaded (its log says more)"
    elif isinstance(exc, httpx.HTTPError):
        line = f"the connection to {console} failed: {_without_errno(exc)}"
    elif isinstance(exc, ApiError | ConnectionError | ServiceError):
        line = str(exc)
    elif isinstance(exc, sqlalchemy.exc.OperationalError):
        database = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "the embedded PostgreSQL"
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        line = f"cannot reach the database ({database}): {reason}"
    elif _no_schema(exc):
        line = (
            "this database has no Stallscope tables yet: run `stallscope migrate` (or start "
            "`stallscope serve` once), or point DATABASE_URL or --data-dir at the console's"
        )
    elif isinstance(exc, OSError) and exc.filename is not None:
        line = f"{exc.filename}: {exc.strerror or exc}"
    elif isinstance(exc, OSError | ParseError):
        line = f"{where}{exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}"
    else:
        line = f"{where}unexpected {type(exc).__name__}: {exc} ({DEBUG_ENV}=1 shows the traceback)"
    return " ".join(line.split())


def _no_schema(exc: Exception) -> bool:
    """A query on a database the migrations never ran on (a table is missing)."""
    import psycopg
    import sqlalchemy.exc

    return isinstance(exc, sqlalchemy.exc.ProgrammingError) and isinstance(
        exc.orig, psycopg.errors.UndefinedTable
    )


def _without_errno(exc: Exception) -> str:
    """'[Errno 111] Connection refused' as 'connection refused'."""
    text = re.sub(r"^\[Errno -?\d+\]\s*", "", str(exc).strip()) or type(exc).__name__
    return text[:1].lower() + text[1:]


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
