"""The `upload` and `flush` commands."""

from __future__ import annotations

import argparse
import json
import os
import socket

from stallscope_collect.console import Console
from stallscope_collect.exit_status import EXIT_OK, EXIT_PENDING, EXIT_USAGE
from stallscope_collect.files import default_spool, read_text
from stallscope_collect.formatting import describe
from stallscope_collect.upload.meta import capture_meta
from stallscope_collect.upload.sender import send_all, upload_settings
from stallscope_collect.upload.spool import Spool


def cmd_upload(args: argparse.Namespace, console: Console) -> int:
    host = args.host or socket.gethostname()
    clock = None
    if args.clock:
        try:
            clock = json.loads(read_text(args.clock))
        except (OSError, ValueError) as exc:
            console.error(f"cannot read the clock file: {describe(exc)}")
            return EXIT_USAGE
    for path in args.files:
        if not os.path.isfile(path):
            console.error(f"not a file: {path}")
            return EXIT_USAGE
    spool = Spool(args.spool or default_spool())
    entries = []
    for path in args.files:
        name = os.path.basename(path)
        info = {
            "server": args.server,
            "incident": args.incident,
            "filename": name if name.endswith(".gz") else name + ".gz",
            "host": host,
            "kind": args.kind,
            "clock": clock,
            "meta": capture_meta(args.kind, [], [], None, []),
        }
        entries.append(spool.add(path, info, console))
    _, left = send_all(spool, entries, upload_settings(args, console), console)
    if left:
        return EXIT_PENDING
    return EXIT_OK


def cmd_flush(args: argparse.Namespace, console: Console) -> int:
    spool = Spool(args.spool or default_spool())
    spool.clean()
    entries = spool.entries()
    if not entries:
        console.info(f"the spool is empty ({spool.path})")
        return EXIT_OK
    console.info(f"sending {len(entries)} spooled capture(s) from {spool.path}")
    args.flush_server = args.server
    sent, _ = send_all(spool, entries, upload_settings(args, console), console, blocking=False)
    left = len(spool.entries())
    console.info(f"{sent} sent, {left} left in the spool")
    return EXIT_PENDING if left else EXIT_OK
