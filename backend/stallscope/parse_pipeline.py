"""The features taking part in the parse job, and the order their steps run in: the one place they
are named (`captures/parse_steps.py` says what a step is and when each part of it runs).

In this order each part runs in its phase. After the commit, planner statistics come first, before
anything queries the new rows, and the findings last but one, just before the capture turns ready: their
digest reads what the steps above stored (the thread states among them), and a watch capture's
signatures are checked on that digest last.
"""

from __future__ import annotations

from stallscope.captures.parse_steps import ParseStep
from stallscope.findings.parse_step import PARSE_STEP as FINDINGS
from stallscope.flame.parse_step import PARSE_STEP as CALLSITE_TREE
from stallscope.heatmap.parse_step import PARSE_STEP as SAMPLE_SLICES
from stallscope.threads.parse_step import PARSE_STEP as THREAD_STATES
from stallscope.timeline.parse_step import PARSE_STEP as TIMELINE_ROLLUPS
from stallscope.timeseries import ROLLUP_STEP as SAMPLE_ROLLUP
from stallscope.timeseries import STATISTICS_STEP as PLANNER_STATISTICS
from stallscope.watch.parse_step import PARSE_STEP as SIGNATURES

PARSE_STEPS: tuple[ParseStep, ...] = (
    SAMPLE_ROLLUP,
    TIMELINE_ROLLUPS,
    SAMPLE_SLICES,
    THREAD_STATES,
    PLANNER_STATISTICS,
    CALLSITE_TREE,
    FINDINGS,
    SIGNATURES,
)
