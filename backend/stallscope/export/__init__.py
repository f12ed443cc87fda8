"""Exports of parsed captures in formats other tools read (folded stacks for flame-graph tools)."""

from stallscope.export.capture_folded import collapse_capture, collapse_file
from stallscope.export.folded import (
    FoldOptions,
    FoldResult,
    StackFolder,
    fold,
    fold_by_event,
    folded_lines,
    write_folded,
)

__all__ = [
    "FoldOptions",
    "FoldResult",
    "StackFolder",
    "collapse_capture",
    "collapse_file",
    "fold",
    "fold_by_event",
    "folded_lines",
    "write_folded",
]
