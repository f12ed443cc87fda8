#!/usr/bin/env bash
# Records the text snapshots of this folder (see README.md). Run as root on a Linux host:
#   ./record.sh OUTDIR
# A stand-in service (`appserver`, a symlink to sleep) runs in a memory cgroup of its own with a
# 512 MiB limit; the same files and commands are printed in each header style. Between the takes of
# start_end.txt, and for pair/impacted.txt, real state changes: a BPF program is loaded and a tracing
# instance gets scheduler and block events. What this host cannot have (cpufreq, kprobes) and the
# settings the stories change globally are edited in afterwards by `story_edits`, below.
set -euo pipefail

# Run with a known environment: the `env` sections must show nothing of whoever ran the script.
if [ "${SNAP_CLEAN:-}" != 1 ]; then
  exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 SNAP_CLEAN=1 \
    API_TOKEN=sample-not-a-secret MALLOC_ARENA_MAX=4 "$0" "$@"
fi

out=$(realpath "${1:?usage: record.sh OUTDIR}")
here=$(cd "$(dirname "$0")" && pwd)
cd / && unset OLDPWD  # the `env` sections show both
mkdir -p "$out/pair"
T=/sys/kernel/tracing
THP=/sys/kernel/mm/transparent_hugepage
CG=/sys/fs/cgroup/memory/appserver
INSTANCE=$T/instances/appserver-debug
work=$(mktemp -d)
# The collector as it is handed out: the one file its build script makes from the package.
collector=$(python3 "$here/../../../../../collectors/build_zipapp.py" --output "$work/stallscope-collect.pyz")
pid=
bpf=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  [ -n "$bpf" ] && kill "$bpf" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ -d "$INSTANCE" ]; then echo > "$INSTANCE/set_event"; rmdir "$INSTANCE"; fi
  if [ -d "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$CG"
echo $((512 << 20)) > "$CG/memory.limit_in_bytes"
echo $((384 << 20)) > "$CG/memory.soft_limit_in_bytes"
ln -s "$(command -v sleep)" "$work/appserver"

start_service() { # extra environment assignments for the service, e.g. LD_BIND_NOW=1
  [ -n "$pid" ] && kill "$pid" && wait "$pid" 2>/dev/null || true
  env -i PATH=/usr/bin:/bin LANG=C.UTF-8 MALLOC_ARENA_MAX=2 DB_PASSWORD=sample-secret "$@" \
    "$work/appserver" 600 &
  pid=$!
  echo "$pid" > "$CG/cgroup.procs"
}

load_bpf() { # a tracepoint-type program, loaded and never attached: what `bpftool prog show` lists
  python3 - > /dev/null <<'EOF' &
import ctypes, struct, time
libc = ctypes.CDLL(None, use_errno=True)
insns = ctypes.create_string_buffer(struct.pack("<BBhiBBhi", 0xB7, 0, 0, 0, 0x95, 0, 0, 0), 16)  # r0 = 0; exit
gpl = ctypes.create_string_buffer(b"GPL")
attr = struct.pack("<IIQQIIQII16s", 5, 2, ctypes.addressof(insns), ctypes.addressof(gpl), 0, 0, 0, 0, 0, b"fsync_lat")
attr = ctypes.create_string_buffer(attr.ljust(144, b"\0"), 144)
if libc.syscall(321, 5, attr, 144) < 0:  # bpf(BPF_PROG_LOAD)
    raise SystemExit(f"BPF_PROG_LOAD failed: errno {ctypes.get_errno()}")
time.sleep(600)
EOF
  bpf=$!
  sleep 1
}

trace_instance() { # scheduler and block events in a tracing instance of its own, buffer off
  mkdir -p "$INSTANCE"
  echo 0 > "$INSTANCE/tracing_on"
  echo sched:sched_switch >> "$INSTANCE/set_event"
  echo block:block_rq_issue >> "$INSTANCE/set_event"
}

hdr() {
  case $style in
    eq) printf '== %s ==\n' "$1" ;;
    hash) printf '# %s\n' "$1" ;;
    dash) printf -- '---- %s ----\n' "$1" ;;
  esac
}
# A section: the header, what the command printed (its errors too), a blank line except in `#` style.
show() { hdr "$1"; shift; "$@" 2>&1 || true; [ "$style" = hash ] || echo; }
showfile() { show "$1" cat "$1"; }

FILES=(
  "$THP/enabled" "$THP/defrag" "$THP/shmem_enabled" "$THP/khugepaged/defrag"
  /sys/devices/system/cpu/online /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
  /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio /proc/sys/vm/dirty_bytes
  /proc/sys/vm/dirty_background_bytes /proc/sys/vm/dirty_expire_centisecs
  /proc/sys/vm/dirty_writeback_centisecs /proc/sys/vm/swappiness /proc/sys/vm/zone_reclaim_mode
  /proc/sys/vm/min_free_kbytes /proc/sys/vm/overcommit_memory
  /proc/sys/kernel/numa_balancing /proc/sys/kernel/perf_event_paranoid /proc/sys/kernel/sched_autogroup_enabled
  "$T/current_tracer" "$T/tracing_on" "$T/set_event" "$T/kprobe_events" "$T/uprobe_events"
  /proc/version /proc/cmdline
  "$CG/memory.limit_in_bytes" "$CG/memory.soft_limit_in_bytes" "$CG/memory.memsw.limit_in_bytes"
)

paths_take() { # the files by path, then the service's /proc files, then a few commands
  for f in "${FILES[@]}"; do showfile "$f"; done
  [ -d "$INSTANCE" ] && showfile "$INSTANCE/set_event"
  show "/proc/$pid/comm" cat "/proc/$pid/comm"
  show "/proc/$pid/cmdline" sh -c "tr '\0' ' ' < /proc/$pid/cmdline; echo"
  show "/proc/$pid/environ" sh -c "tr '\0' '\n' < /proc/$pid/environ"
  show "/proc/$pid/cgroup" cat "/proc/$pid/cgroup"
  show /proc/mounts awk '$2 !~ "^/mnt/"' /proc/mounts
  show "uname -a" uname -a
  show "date -u" date -u
  show "bpftool prog show" bpftool prog show
  show "ps -o pid,ppid,stat,pcpu,rss,comm -p $pid,$$" ps -o pid,ppid,stat,pcpu,rss,comm -p "$pid,$$"
  show "top -bn1 -p $pid | head -8" sh -c "top -bn1 -p $pid | head -8"
}

named_take() { # sections named by what they hold, some in grep's path:value form
  show "uname -a" uname -a
  show "date" date
  show "hostname" hostname
  show "thp" sh -c "grep -r . $THP"
  show "governors" sh -c "grep . /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"
  show "set_event" cat "$T/set_event"
  show "kprobe_events" cat "$T/kprobe_events"
  show "bpftool prog show -j" bpftool prog show -j
  show "env" env
  show "mount" sh -c "mount | awk '\$3 !~ \"^/mnt/\"'"
  show "cgroup limits" sh -c "grep . $CG/memory.limit_in_bytes $CG/memory.soft_limit_in_bytes"
  show "sysctl -a" sysctl -a
  show "kernel config" zcat /proc/config.gz
  show "ps" ps -o pid,ppid,stat,pcpu,rss,comm -p "$pid,$$"
  show "top" sh -c "top -bn1 -p $pid | head -8"
}

# The boot command line of the recording VM names its tooling, and /proc/version its build host:
# neither belongs in test data, so both are replaced, in every file, by neutral values.
real_cmdline=$(cat /proc/cmdline)
sanitise() {
  REAL_CMDLINE=$real_cmdline python3 -c '
import os, re, sys
text = sys.stdin.read().replace(os.environ["REAL_CMDLINE"], "console=ttyS0 quiet reboot=k panic=1 psi=1")
sys.stdout.write(re.sub(r"(Linux version \S+) \(\S+@\S+\)", r"\1 (builder@buildhost)", text))'
}

# Healthy-looking takes, in each style.
start_service LD_BIND_NOW=1
style=eq
paths_take | sanitise > "$out/eq_paths.txt"
python3 - "$collector" "$pid" <<'EOF' | sanitise > "$out/collector.json"
import json, sys
sys.path.insert(0, sys.argv[1])
from stallscope_collect.snapshot import take_snapshot
print(json.dumps(take_snapshot("vm", [int(sys.argv[2])], "/usr/bin/perf"), indent=2))
EOF
head -v -n 40 "${FILES[@]}" 2>&1 | sanitise > "$out/head_v.txt" || true
style=hash
{ paths_take; sleep 1; paths_take; } | sanitise > "$out/hash_paths_twice.txt"
style=dash
named_take | sanitise > "$out/dash_named.txt"
sysctl -a 2>/dev/null > "$out/sysctl_a.txt"
grep -r . "$THP" /proc/sys/vm 2>/dev/null > "$out/grep_r.txt" || true
for f in "${FILES[@]}"; do printf '%s = %s\n' "$f" "$(cat "$f" 2>&1 | head -1)"; done | sanitise > "$out/path_equals.txt"

# start_end.txt: two takes with markers, a BPF program and a tracing instance appearing in between.
style=eq
{ echo "==== start $(date -u +%Y-%m-%dT%H:%M:%SZ) ===="; paths_take; } > "$work/start.txt"
load_bpf
trace_instance
{ echo "==== end $(date -u +%Y-%m-%dT%H:%M:%SZ) ===="; paths_take; } > "$work/end.txt"
cat "$work/start.txt" "$work/end.txt" | sanitise > "$out/start_end.txt"
kill "$bpf"; bpf=
echo > "$INSTANCE/set_event"; rmdir "$INSTANCE"

# The pair: the same take on a healthy host and an impacted one. Real differences: the service's
# LD_BIND_NOW, a loaded BPF program, a tracing instance's events. `story_edits` adds the rest.
start_service LD_BIND_NOW=1
paths_take | sanitise > "$work/healthy.txt"
start_service
load_bpf
trace_instance
paths_take | sanitise > "$work/impacted.txt"

story_edits() { # $1: governor, $2: THP defrag line, $3: dirty_ratio, $4: dirty_background_ratio, $5: kprobe lines
  GOV=$1 DEFRAG=$2 RATIO=$3 BG=$4 KPROBES=$5 python3 -c '
import os, re, sys
text = sys.stdin.read()
def body(path, value):
    global text
    text = re.sub(r"(?m)^(== " + re.escape(path) + r" ==\n)(?:(?!== ).*\n)*?\n", lambda m: m.group(1) + value + "\n\n", text, count=1)
body("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", os.environ["GOV"])
text = text.replace("== /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ==\n" + os.environ["GOV"] + "\n\n",
    "== /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ==\n" + os.environ["GOV"] + "\n\n"
    "== /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor ==\n" + os.environ["GOV"] + "\n\n")
body("/sys/kernel/mm/transparent_hugepage/defrag", os.environ["DEFRAG"])
body("/proc/sys/vm/dirty_ratio", os.environ["RATIO"])
body("/proc/sys/vm/dirty_background_ratio", os.environ["BG"])
body("/sys/kernel/tracing/kprobe_events", os.environ["KPROBES"])
sys.stdout.write(text)'
}
story_edits performance "always defer defer+madvise [madvise] never" 20 10 "" \
  < "$work/healthy.txt" > "$out/pair/healthy.txt"
story_edits powersave "[always] defer defer+madvise madvise never" 80 50 \
  $'p:kprobes/fsync_entry vfs_fsync_range\nr:kprobes/fsync_exit vfs_fsync_range ret=$retval' \
  < "$work/impacted.txt" > "$out/pair/impacted.txt"
echo "recorded into $out"
