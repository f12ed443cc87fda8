"""What a view says when its times are not wall-clock: one wording for the console and the commands.

A capture nothing aligned (no anchor, no wall-clock column, no start given) keeps its own clock:
perf's and ftrace's seconds since boot, or `perf trace`'s time since the trace began. A view of it
still works, but its seconds are not UTC seconds, and a person reading "row 0" or "14:02:10" must be
told so, and told how to align it.
"""

from __future__ import annotations

from collections.abc import Sequence


def captures_subject(capture_ids: Sequence[int]) -> str:
    """'capture #3 is' or 'captures #3, #4 are': the subject of a note about stored captures."""
    ids = ", ".join(f"#{i}" for i in capture_ids)
    return f"capture {ids} is" if len(capture_ids) == 1 else f"captures {ids} are"


def own_clock_note(subject: str, *, relative: bool, align: str, mixed: bool = False) -> str:
    """The note, e.g. own_clock_note("this file's times are", relative=False, align="pass --offset").

    `relative`: the times count from the start of the trace rather than from boot. `align`: what the
    reader can do about it, in their terms (an option, a setting). `mixed`: aligned times are shown
    beside these, so seconds side by side are unrelated.
    """
    clock = (
        "times relative to the start of the trace"
        if relative
        else "its own clock (perf and ftrace: seconds since boot)"
    )
    note = (
        f"{subject} on {clock}, not wall-clock time: the seconds shown are that clock's, and row 0 is "
        f"not the start of a UTC second; {align} to align them"
    )
    if mixed:
        note += "; mixed with aligned captures, the columns span unrelated times"
    return note
