"""Recognise `perf script` text from a file's first bytes, and name the usual wrong uploads.

`detect` answers the registry's question (is this ours?). `reject_non_text` is the parser's first check,
so that a `perf.data` file or binary junk fails with a reason a person can act on rather than with a
pile of "malformed line" warnings.
"""

from __future__ import annotations

from stallscope.ingest import text_lines
from stallscope.ingest.perf_data import PERF_DATA_MESSAGE, looks_like_perf_data
from stallscope.ingest.perf_script.header import HEADER
from stallscope.ingest.perf_script.naming import split_frame_line
from stallscope.ingest.text_lines import looks_binary

__all__ = ["PERF_DATA_MESSAGE", "detect", "looks_binary", "looks_like_perf_data", "reject_non_text"]

_SNIFF_BYTES = 64 * 1024
_SNIFF_LINES = 200


def reject_non_text(head: bytes) -> None:
    """Raise ParseError for inputs that cannot be `perf script` output at all."""
    text_lines.reject_non_text(head, "`perf script`")


def detect(head: bytes) -> bool:
    """True if `head` starts like `perf script` output: a sample header, then its frames.

    Comment lines (`perf script --header`) and leading blank lines are skipped. A header with a
    timestamp is enough on its own (samples without a call chain, or a window cut after the header).
    """
    if looks_like_perf_data(head) or looks_binary(head):
        return False
    lines = head[:_SNIFF_BYTES].split(b"\n")
    if len(head) >= _SNIFF_BYTES or not lines[-1].strip():
        lines.pop()  # after the final newline, or a line the sniffed window may have cut
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
