"""Leave a process whose work is done without the interpreter's teardown.

Once `serve` has stopped every part (or a worker has stopped and joined its pool), what the
interpreter does next is tear down a large heap object by object, and, in the worker, join billiard's
idle helper threads one after another: 2 to 3 s during which the console looks stuck and does
nothing anyone needs. This closes what others would see (database connections) and flushes what a
person would read (logs, stdout), then exits.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import NoReturn

from stallscope.db import dispose_engines


def leave(code: int) -> NoReturn:
    dispose_engines()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
