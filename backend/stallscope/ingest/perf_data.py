"""Recognise perf's binary recording (`perf.data`) by its magic, and say how to turn it into text.

People upload the `perf.data` that `perf record` wrote instead of the text `perf script` makes of it.
Only the host that recorded it (its perf, binaries and symbols) can make that text, so the answer is
the command to run there. perf's `tools/perf/util/header.c` reads four magics:

- `PERFILE2` followed by the header's size, 104 or more: a file written by `perf record`;
- `PERFILE2` followed by 16: pipe mode (`perf record -o - | ...`), the size of the pipe header;
- `2ELIFREP`: the same magic written by a big-endian host (s390x, ppc64, sparc);
- `PERFFILE`: the version 1 layout of perf before 2.6.37.
"""

from __future__ import annotations

PERF_SCRIPT_COMMAND = "perf script -i perf.data | gzip > perf.txt.gz"
PERF_DATA_MESSAGE = (
    "this is a perf.data file (perf record's binary output), not text: on the host that recorded it, "
    f"run `{PERF_SCRIPT_COMMAND}` and upload perf.txt.gz"
)
_LITTLE_ENDIAN = b"PERFILE2"
_BIG_ENDIAN = b"2ELIFREP"
_VERSION_1 = b"PERFFILE"
_PIPE_HEADER_SIZE = (16).to_bytes(8, "little")

_MESSAGES = {
    "pipe": (
        "this is perf.data written in pipe mode (`perf record -o -`), not text: on the host that "
        f"recorded it, run `{PERF_SCRIPT_COMMAND}` (name the file you saved) and upload perf.txt.gz"
    ),
    "big-endian": (
        "this is a perf.data file from a big-endian host (s390x, ppc64), not text: on that host, "
        f"run `{PERF_SCRIPT_COMMAND}` and upload perf.txt.gz"
    ),
    "version 1": (
        "this is an old (version 1) perf.data file, not text: with the perf that recorded it, "
        f"run `{PERF_SCRIPT_COMMAND}` and upload perf.txt.gz"
    ),
}


def perf_data_kind(head: bytes) -> str | None:
    """`file`, `pipe`, `big-endian` or `version 1` for a perf.data head; None for anything else."""
    magic = head[:8]
    if magic == _LITTLE_ENDIAN:
        return "pipe" if head[8:16] == _PIPE_HEADER_SIZE else "file"
    if magic == _BIG_ENDIAN:
        return "big-endian"
    if magic == _VERSION_1:
        return "version 1"
    return None


def looks_like_perf_data(head: bytes) -> bool:
    return perf_data_kind(head) is not None


def perf_data_message(head: bytes) -> str | None:
    """What to tell the person who uploaded this perf.data head; None when it is not one."""
    kind = perf_data_kind(head)
    if kind is None:
        return None
    return _MESSAGES.get(kind, PERF_DATA_MESSAGE)
