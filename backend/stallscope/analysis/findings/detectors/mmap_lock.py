"""mmap_lock contention: threads of one process queue on its address-space lock (mmap_sem before 5.8).

Every mmap, munmap, mprotect, brk and mremap takes the process's mmap_lock for writing, and page
faults that miss the per-VMA lock, /proc/PID/maps readers and madvise take it for reading: one
thread mapping memory in a loop stalls every faulting thread of the process. Seen as time in D
under `rwsem_down_write_slowpath`/`rwsem_down_read_slowpath` reached from memory-map calls.
"""

from __future__ import annotations

from stallscope.analysis.findings.blocked import BlockedDetector
from stallscope.analysis.findings.profile import Terms


class MmapLockContention(BlockedDetector):
    id = "mmap-lock-contention"
    title = "mmap_lock contention"
    terms = Terms(
        "rwsem_down_write_slowpath",
        "rwsem_down_read_slowpath",
        "rwsem_down_write_failed",
        "rwsem_down_read_failed",
    )
    also = Terms(
        "mmap",
        "munmap",
        "mprotect",
        "mremap",
        "brk",
        "madvise",
        "do_user_addr_fault",
        "lock_mm_and_find_vma",
        "vm_mmap",
        "get_user_pages",
        "mincore",
        "proc_pid_maps",
        "m_start",
    )
    states = ("D",)
    what = "blocked on mmap_lock"
    next_checks = (
        "Which calls take it for writing: the threads' syscalls (perf trace -e "
        "mmap,munmap,mprotect,brk,madvise).",
        "Whether an allocator returns memory to the kernel in a loop (malloc trim, arena release, large "
        "allocations served by mmap).",
        "Whether a monitoring agent reads /proc/PID/maps or smaps of this process often.",
    )
    remediation = (
        "Take mmap/munmap out of hot loops: reuse mappings or buffers, raise the allocator's mmap "
        "threshold and trim threshold (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, or jemalloc/tcmalloc "
        "retention), stop frequent /proc/PID/maps readers; on kernels before 6.4 per-VMA locks are "
        "absent, so faults contend too."
    )
    references = (
        "https://docs.kernel.org/mm/process_addrs.html",
        "https://lwn.net/Articles/893906/",
    )
