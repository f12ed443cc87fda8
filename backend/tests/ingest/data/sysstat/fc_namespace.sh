#!/bin/sh
# Run a command with a simulated Fibre Channel host: sysstat reads /sys/class/fc_host/host*/statistics,
# which this VM lacks. In a private mount namespace, /sys/class is replaced by a tmpfs holding bind
# mounts of every real class plus a fc_host/host0 whose counters a loop moves on while the command runs.
set -eu
scratch=$(mktemp -d)
mount -t tmpfs none "$scratch"
for class in /sys/class/*; do
    mkdir "$scratch/${class##*/}"
    mount --bind "$class" "$scratch/${class##*/}"
done
stats="$scratch/fc_host/host0/statistics"
mkdir -p "$stats"
frames=0
write_counters() {
    printf '0x%x\n' "$frames" > "$stats/rx_frames"
    printf '0x%x\n' $((frames / 2)) > "$stats/tx_frames"
    printf '0x%x\n' $((frames * 512)) > "$stats/rx_words"
    printf '0x%x\n' $((frames * 256)) > "$stats/tx_words"
}
write_counters
mount --bind "$scratch" /sys/class
( while :; do frames=$((frames + 1200)); write_counters; sleep 0.1; done ) &
ticker=$!
"$@"
kill "$ticker"
