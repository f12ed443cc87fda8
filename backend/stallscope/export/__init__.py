"""Exports of parsed captures in formats other tools read (folded stacks for flame-graph tools)."""

from stallscope.export.folded import (
    FoldOptions,
    FoldResult,
    StackFolder,
    collapse_file,
    fold,
    fold_by_event,
    folded_lines,
    write_folded,
)

__all__ = [
    "FoldOptions",
    "FoldResult",
    "StackFolder",
    "collapse_file",
    "fold",
    "fold_by_event",
    "folded_lines",
    "write_folded",
]
