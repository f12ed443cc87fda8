#!/bin/sh
# Records the trace-cmd sample; run as `unshare -m ./record.sh DIR` (DIR holds stubs/ and gets the
# output). The recording host's kernel refuses writes to /proc/sys/kernel/ftrace_enabled and to every
# function-tracer control file (set_ftrace_*), and trace-cmd 3.1.6 aborts (or segfaults) on those even
# when it only records events; empty stub files bind-mounted over them, in a mount namespace of its own,
# absorb its writes. stubs/ftrace_enabled holds "1"; the set_ftrace_* stubs are empty.
set -e
D=$1
mount --bind "$D/stubs/ftrace_enabled" /proc/sys/kernel/ftrace_enabled
for f in set_ftrace_pid set_ftrace_filter set_ftrace_notrace set_ftrace_notrace_pid; do
  mount --bind "$D/stubs/$f" "/sys/kernel/tracing/$f"
done
(sleep 0.5; dd if=/dev/urandom of="$D/ddfile" bs=64k count=64 conv=fsync 2>&1) > "$D/dd.log" &
trace-cmd record -e block:block_rq_insert -e block:block_rq_issue -e block:block_rq_complete -e block:block_bio_queue -e sched:sched_wakeup -T -o "$D/trace.dat" sleep 2
wait
