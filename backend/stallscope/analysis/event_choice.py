"""Which sample event a view shows when none is chosen: one policy for every view and command.

Different events are never summed: a `cycles` sample and a `cpu-clock` sample weigh different
things. Without a choice, the event sampled most is shown, equal counts in name order so that the
choice never depends on the order rows come in. /proc stack samples (threads' kernel stacks, dumped
by the collector's sampler) are not CPU samples: they are offered after every CPU event and never
chosen while one exists, because their R and S dumps would outnumber a few seconds of perf samples.
"""

from __future__ import annotations

from collections.abc import Iterable

from stallscope.ingest.proc_stacks.events import is_proc_stack_event


def offered_events(counts: Iterable[tuple[str, int]]) -> list[str]:
    """The events of (event, samples) pairs in the order a view offers them; the first is the default.

    An event listed more than once (one pair per capture) counts the sum of its samples."""
    totals: dict[str, int] = {}
    for event, samples in counts:
        totals[event] = totals.get(event, 0) + samples
    return sorted(totals, key=lambda event: (is_proc_stack_event(event), -totals[event], event))


def default_event(counts: Iterable[tuple[str, int]]) -> str | None:
    """The event a view shows without a choice; None when there are no samples at all."""
    offered = offered_events(counts)
    return offered[0] if offered else None
