#!/bin/bash
# Records lockwait.sched.txt.gz beside this script: ./record.sh (as root, for `perf record -a`).
# lockwait.c runs four threads on one mutex, two on another, a ticker that sleeps on a 20 ms timer
# and takes the busy mutex every fourth tick, and a write+fsync loop; perf records the scheduler
# events and the futex calls of the whole machine for 2 s, and cut.py keeps 0.25 s of the lines
# that concern the workload's threads.
set -e
cc -O1 -g -fno-omit-frame-pointer -pthread -o /usr/local/bin/lockwait lockwait.c
/usr/local/bin/lockwait 4 /var/tmp/lockwait.dat &
PID=$!
sleep 0.7
perf record -o /var/tmp/sched.data -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking \
  -e syscalls:sys_enter_futex -a -g -- sleep 2
wait $PID
rm -f /var/tmp/lockwait.dat
perf script -i /var/tmp/sched.data -F +pid,+ip,+sym,+symoff,+dso > /var/tmp/sched.txt
START=$(awk -v pid="$PID" '$2 ~ "^"pid"/" { sub(":", "", $4); print $4 + 0.6; exit }' /var/tmp/sched.txt)
python3 cut.py /var/tmp/sched.txt "$PID" "$START" 0.25 | gzip -9 -n > lockwait.sched.txt.gz
