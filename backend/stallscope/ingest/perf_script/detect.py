"""Recognise `perf script` text from a file's first bytes, and name the usual wrong uploads.

`detect` answers the registry's question (is this ours?). `reject_non_text` is the parser's first check,
so that a `perf.data` file or binary junk fails with a reason a person can act on rather than with a
pile of "malformed line" warnings.
"""

from __future__ import annotations

from stallscope.ingest.model import ParseError
from stallscope.ingest.perf_script.header import HEADER
from stallscope.ingest.perf_script.naming import split_frame_line

PERF_DATA_MAGICS = (b"PERFILE2", b"2ELIFREP", b"PERFFILE")
PERF_DATA_MESSAGE = "this is a perf.data file; run `perf script` on the host and upload its output"
_SNIFF_BYTES = 64 * 1024
_SNIFF_LINES = 200


def looks_like_perf_data(head: bytes) -> bool:
    """perf's binary recording (either byte order, or the old v1 layout)."""
    return head.startswith(PERF_DATA_MAGICS)


def looks_binary(head: bytes) -> bool:
    """NUL bytes, or more than 1% of the text not decoding as UTF-8."""
    sample = head[:_SNIFF_BYTES]
    if b"\0" in sample:
        return True
    bad = sample.decode("utf-8", "replace").count("\ufffd")
    return bad > 4 and bad * 100 > len(sample)


def reject_non_text(head: bytes) -> None:
    """Raise ParseError for inputs that cannot be `perf script` output at all."""
    if looks_like_perf_data(head):
        raise ParseError(0, PERF_DATA_MESSAGE)
    if looks_binary(head):
        raise ParseError(
            0, "this is binary data, not `perf script` text (a compressed format other than gzip or zstd?)"
        )


def detect(head: bytes) -> bool:
    """True if `head` starts like `perf script` output: a sample header, then its frames.

    Comment lines (`perf script --header`) and leading blank lines are skipped. A header with a
    timestamp is enough on its own (samples without a call chain, or a window cut after the header).
    """
    if looks_like_perf_data(head) or looks_binary(head):
        return False
    lines = head[:_SNIFF_BYTES].split(b"\n")
    if len(head) > _SNIFF_BYTES or not head.endswith(b"\n"):
        lines.pop()  # the last line may be cut by the sniffed window
    header = None
    for line in lines[:_SNIFF_LINES]:
        if line.startswith(b"#") or (header is None and not line.strip()):
            continue
        if header is None:
            header = HEADER.match(line)
            if header is None:
                return False
            continue
        if split_frame_line(line.decode("utf-8", "replace")) is not None:
            return True
        break
    return header is not None and header.group("time") is not None
