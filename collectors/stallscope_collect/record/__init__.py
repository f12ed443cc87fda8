"""The `record` command: checked and planned (command.py), run (run.py, perf_processes.py), and its
outputs written and uploaded (outputs.py)."""
