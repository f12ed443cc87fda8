"""How /proc stack samples are named as sample events, for the importer and the views that read them.

Samples have no state column, so a dump's scheduler state travels in its event name: `proc-stack`
when the dump did not say, `proc-stack:D` when it did. Stored totals, rollups and per-bucket counts
all key on the event already, so each state gets them without a column of its own, and a view reads
"every state" as the events of this family and one state as one event.
"""

from __future__ import annotations

EVENT = "proc-stack"
SEPARATOR = ":"
LIKE_STATED = EVENT + SEPARATOR + "%"
"""A SQL LIKE pattern for the events that carry a state (no `%` or `_` in EVENT to escape)."""


def event_name(state: str | None) -> str:
    """`proc-stack`, or `proc-stack:D` for a dump taken while the thread was in state D."""
    return EVENT if state is None else EVENT + SEPARATOR + state


def is_proc_stack_event(event: str) -> bool:
    return event == EVENT or event.startswith(EVENT + SEPARATOR)


def state_of(event: str) -> str | None:
    """The state a `proc-stack:<state>` event carries; None for `proc-stack` and for other events."""
    if event.startswith(EVENT + SEPARATOR):
        return event[len(EVENT) + 1 :]
    return None
