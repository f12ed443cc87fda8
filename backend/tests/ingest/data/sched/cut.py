"""Keep, from `perf script` output, the samples that concern one process's threads in a time span.

    python3 cut.py sched.txt PID START SECONDS > cut.txt

A sample stays when it runs in one of the process's threads, or its tracepoint arguments name one
(a switch to or from it, a wakeup of it). Samples of other processes keep their kernel frames only:
their user frames named other software on the recording machine.
"""

import re
import sys

HEADER = re.compile(r"^\s*(.*?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):")
NAMED = re.compile(r"(?:prev_pid|next_pid|pid)=(\d+)\b")


def main() -> None:
    path, pid, start, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    with open(path) as f:
        blocks = [b for b in f.read().split("\n\n") if b.strip()]
    tids = set()
    for block in blocks:
        match = HEADER.match(block)
        if match and match.group(2) == pid:
            tids.add(match.group(3))
    out = []
    for block in blocks:
        match = HEADER.match(block)
        if match is None or not start <= float(match.group(5)) < start + seconds:
            continue
        lines = block.split("\n")
        if match.group(2) != pid:
            if not any(tid in tids for tid in NAMED.findall(lines[0])):
                continue
            lines = [lines[0]] + [line for line in lines[1:] if "[kernel.kallsyms]" in line]
        out.append("\n".join(lines))
    sys.stdout.write("\n\n".join(out) + "\n\n")


if __name__ == "__main__":
    main()
