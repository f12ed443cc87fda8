"""Recognise ftrace text: event lines (`trace-cmd report`, the trace file) or function_graph output.

After the header lines (`# tracer: ...`, `cpus=2`, `version = 6`), most of the sniffed lines must be
event lines (or their `=>` stack lines), or function_graph lines. Either shape is specific: an event
line reads `comm-tid [cpu] seconds: name:` (perf script puts a space, not a dash, before the id), a
graph line `cpu) duration | body` or, without the duration column, `cpu) body`. `CPU:1 [LOST 12
EVENTS]` lines belong to both.
"""

from __future__ import annotations

from stallscope.ingest.ftrace.event_line import EVENT, is_frame_line
from stallscope.ingest.ftrace.parser import is_graph_banner, is_graph_line, is_header, is_lost_events
from stallscope.ingest.text_lines import sniff_lines

_SNIFF = 40


def detect(head: bytes) -> bool:
    lines = sniff_lines(head, comments=True)
    if lines is None:
        return False
    if any(line.startswith(b"# tracer: function_graph") for line in lines[:5]):
        return True
    events = graph = other = 0
    for line in lines:
        if is_header(line) or is_graph_banner(line) or is_lost_events(line):
            continue
        if is_frame_line(line):
            if events == 0:
                return False
            continue
        if EVENT.match(line):
            events += 1
        elif is_graph_line(line):
            graph += 1
        else:
            other += 1
        if events + graph + other >= _SNIFF:
            break
    return max(events, graph) > 0 and other * 5 <= events + graph and min(events, graph) == 0
