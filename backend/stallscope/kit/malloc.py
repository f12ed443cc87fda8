"""Give large freed buffers back to the system, so an API process's memory follows what it holds.

Flame graphs and diffs allocate large short-lived buffers (a view's weights, an answer's JSON, a
few megabytes each). glibc serves allocations over its mmap threshold with their own mappings,
unmapped when freed, but it raises that threshold to the size of each such buffer freed: soon every
buffer comes from the heap, whose freed holes stay resident. Measured on a 350,000-node capture:
the process grew to 400 MB with 130 MB in use.

Two settings, measured on that capture (a diff's first request, and the API's memory with ten such
captures browsed): a fixed low threshold (256 kB) kept memory at 285 MB, but every array of a few
hundred kB became a mapping of its own, faulted in page by page and unmapped again: the diff took
330-380 ms. A fixed high one (32 MB) and the heap's free pages given back after each view built
(`give_back`, `malloc_trim`: a millisecond) keep both: the arrays reuse heap memory while a view is
built, and what it freed leaves the process once it is answered.

Only on glibc; elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3
"""mallopt's parameter number (malloc.h)."""
MMAP_THRESHOLD_BYTES = 32 * 1024 * 1024


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def return_large_buffers() -> bool:
    """Fix glibc's mmap threshold; True when it was set."""
    libc = _libc()
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    if mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) != 1:
        log.info("mallopt(M_MMAP_THRESHOLD) refused: large buffers may stay resident after use")
        return False
    return True


def _trimmer() -> Callable[[int], int] | None:
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trimmed: Callable[[int], int] = trim
    return trimmed


_trim = _trimmer()


def give_back() -> None:
    """Return the heap's free pages to the system (after a view's buffers are freed)."""
    if _trim is not None:
        _trim(0)
