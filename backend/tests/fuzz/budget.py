"""The fuzz tests' budget: fixed and derandomized in CI, so CI cannot go red at random; larger and
random when STALLSCOPE_FUZZ_EXAMPLES asks for an exploring run."""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, settings

EXAMPLES_ENV = "STALLSCOPE_FUZZ_EXAMPLES"
EXPLORING = bool(os.environ.get(EXAMPLES_ENV))


def fuzz_settings(ci_examples: int, deadline_s: float) -> settings:
    """Settings with `ci_examples` per property in CI; `deadline_s` is far above an example's usual
    time even on a loaded machine: it catches a parse that grows quadratically or hangs."""
    return settings(
        max_examples=int(os.environ.get(EXAMPLES_ENV) or ci_examples),
        derandomize=not EXPLORING,
        database=None,  # nothing written into the checkout; crashers are kept by hand, with a name
        deadline=timedelta(seconds=deadline_s),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    )
