"""Findings: rule-based detectors that name the cause of a latency incident, with its evidence.

Pure analysis: detectors read capture digests (`digest.py`), never the database or a file, so the
server and `stallscope findings` run the same rules on the same numbers.
"""
