"""Restarts back off while a part keeps dying at once, and start quick again once it stayed up."""

from __future__ import annotations

from stallscope.supervision import FIRST_DELAY_S, MAX_DELAY_S, STABLE_AFTER_S, Backoff


def test_quick_deaths_double_the_delay_up_to_the_cap() -> None:
    backoff = Backoff()
    delays = [backoff.next_delay(uptime_s=0.5) for _ in range(8)]
    assert delays[:3] == [FIRST_DELAY_S, 2 * FIRST_DELAY_S, 4 * FIRST_DELAY_S]
    assert delays[-1] == MAX_DELAY_S
    assert delays == sorted(delays)


def test_a_part_that_stayed_up_is_restarted_at_once_again() -> None:
    backoff = Backoff()
    for _ in range(6):
        backoff.next_delay(uptime_s=0.5)
    assert backoff.next_delay(uptime_s=STABLE_AFTER_S + 1) == FIRST_DELAY_S
