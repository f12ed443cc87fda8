"""The `watch` command: a short capture every few minutes, uploaded to the host's watch stream.

`command.py` checks the flags and what perf may do here once (`checks.py`, `prober.py`) and fills
`config.py`; `loop.py` runs the rounds on their grid (`schedule.py`); `round.py` runs one: what it
can record now and its plan (`planning.py`), the recording with record's own code (`recording.py`),
the snapshot when it changed (`snapshot_change.py`), its files sent through the spool (`stream.py`)
or kept, old rounds pruned (`local.py`), and its log line (`report.py`, `cost.py`).
"""
