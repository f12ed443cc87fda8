"""A process worth recording: lock contention, a write+fsync loop, a CPU-bound loop, page faults.

Each thread names itself (its comm) so tests can find it in perf output and /proc samples.
Usage: workload.py DIR  (the fsync loop writes DIR/fsync.dat); runs until killed.
"""

from __future__ import annotations

import mmap
import os
import sys
import threading
import time

LOCK = threading.Lock()


def name_thread(name: str) -> None:
    with open(f"/proc/self/task/{threading.get_native_id()}/comm", "w") as f:
        f.write(name)


def burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def contend() -> None:
    name_thread("wl-lock")
    while True:
        with LOCK:
            burn(3000)
        time.sleep(0.0005)


def cpu_loop() -> None:
    name_thread("wl-cpu")
    while True:
        burn(200_000)


def fsync_loop(directory: str) -> None:
    name_thread("wl-fsync")
    fd = os.open(os.path.join(directory, "fsync.dat"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    block = os.urandom(65536)
    while True:
        os.write(fd, block)
        os.fsync(fd)
        if os.lseek(fd, 0, os.SEEK_CUR) > 32 << 20:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)


def faulter() -> None:
    name_thread("wl-fault")
    size = 4 << 20
    while True:
        region = mmap.mmap(-1, size)
        for offset in range(0, size, 4096):
            region[offset] = 1
        region.close()
        time.sleep(0.02)


def main() -> None:
    directory = sys.argv[1]
    threads = [threading.Thread(target=contend, daemon=True) for _ in range(3)]
    threads += [
        threading.Thread(target=cpu_loop, daemon=True),
        threading.Thread(target=fsync_loop, args=(directory,), daemon=True),
        threading.Thread(target=faulter, daemon=True),
    ]
    for thread in threads:
        thread.start()
    print("ready", flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
