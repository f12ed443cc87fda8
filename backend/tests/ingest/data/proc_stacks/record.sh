#!/bin/bash
# Records the /proc stack samples beside this script: ./record.sh OUTDIR (as root: reading another
# task's /proc/PID/task/TID/stack needs CAP_SYS_ADMIN). Each loop below is one way people write a
# "poor man's off-CPU profiler"; each runs for 3 s against the same workload (stallwork.c).
set -e
OUT=$1
WORK=${WORK:-/var/tmp/stallwork}
mkdir -p "$OUT" "$WORK"
./stallwork "$WORK" 16 &
PID=$!
sleep 1

# Runs "$@" every 0.2 s for 3 s, appending its output to $OUT/$NAME.
every() {
  local name=$1 end=$((SECONDS + 3))
  shift
  while [ $SECONDS -lt $end ]; do "$@"; sleep 0.2; done >> "$OUT/$name"
}

# The header the issue names: epoch microseconds (bash 5's $EPOCHREALTIME), thread id, comm.
ts_us() {
  for t in /proc/$PID/task/*; do
    read -r comm < "$t/comm"
    printf '# ts_us=%s tid=%s comm=%s\n' "${EPOCHREALTIME/./}" "${t##*/}" "$comm"
    cat "$t/stack"
  done
}

# With the process id and the scheduler state from /proc/PID/task/TID/status.
pid_state() {
  for t in /proc/$PID/task/*; do
    read -r comm < "$t/comm"
    while read -r key value _; do [ "$key" = State: ] && state=$value; done < "$t/status"
    printf '# ts_us=%s pid=%s tid=%s state=%s comm=%s\n' "${EPOCHREALTIME/./}" "$PID" "${t##*/}" "$state" "$comm"
    cat "$t/stack"
  done
}

# ISO 8601 time from date(1) (a comma before the fraction, as `date -Ins` prints it).
iso() {
  for t in /proc/$PID/task/*; do
    read -r comm < "$t/comm"
    printf '# time=%s pid=%s tid=%s comm=%s\n' "$(date -Ins)" "$PID" "${t##*/}" "$comm"
    cat "$t/stack"
  done
}

# No header of our own: `date`, then tail's `==> FILE <==` headers, a blank line between files.
tail_date() {
  date
  tail -n +1 /proc/$PID/task/*/stack
}

# No times at all: head's headers only.
head_bare() {
  head -n 64 /proc/$PID/task/*/stack
}

for name in ts_us pid_state iso tail_date head_bare; do
  every "$name.txt" "$name"
done
wait $PID
