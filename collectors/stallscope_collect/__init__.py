"""stallscope-collect: record what a Linux server does during a latency incident, then upload it.

Standard library only, Python 3.8 or newer. It drives `perf` (CPU samples, off-CPU scheduler
events, page faults, syscall durations), samples /proc at 20 Hz (and, with --proc-stacks, the
threads' kernel stacks), takes a system snapshot, pairs the clocks so every time can be put on the
wall clock, and uploads the results to a Stallscope console, keeping them in a local spool until the
console has them. It is developed as this package and handed out as one file, a zipapp built by
`build_zipapp.py` beside it: `python3 stallscope-collect.pyz record --help`.
"""

# No `from __future__ import annotations` here or in __main__.py: they must compile on any Python,
# so that an older one is told what it lacks (see __main__.py) instead of failing on the syntax.
__version__ = "0.1.0"
COLLECTOR = "stallscope-collect " + __version__
