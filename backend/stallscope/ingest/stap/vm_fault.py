"""The `vm_fault_t` bits a page-fault handler returns, as mainline defines them.

From `enum vm_fault_reason` in include/linux/mm_types.h (the values have not moved since they were
introduced; `VM_FAULT_WRITE` 0x8 existed until 6.1 and is only named here). The importer reads
`VM_FAULT_MAJOR` for `major`, `VM_FAULT_RETRY` for `retry` (the fault blocked and will be retried:
its time continues in the next fault on the same address), and the `VM_FAULT_ERROR` set for `error`.
"""

from __future__ import annotations

VM_FAULT_OOM = 0x000001
VM_FAULT_SIGBUS = 0x000002
VM_FAULT_MAJOR = 0x000004
VM_FAULT_WRITE = 0x000008
VM_FAULT_HWPOISON = 0x000010
VM_FAULT_HWPOISON_LARGE = 0x000020
VM_FAULT_SIGSEGV = 0x000040
VM_FAULT_NOPAGE = 0x000100
VM_FAULT_LOCKED = 0x000200
VM_FAULT_RETRY = 0x000400
VM_FAULT_FALLBACK = 0x000800
VM_FAULT_DONE_COW = 0x001000
VM_FAULT_NEEDDSYNC = 0x002000
VM_FAULT_COMPLETED = 0x004000
VM_FAULT_HINDEX_MASK = 0x0F0000

VM_FAULT_ERROR = (
    VM_FAULT_OOM
    | VM_FAULT_SIGBUS
    | VM_FAULT_SIGSEGV
    | VM_FAULT_HWPOISON
    | VM_FAULT_HWPOISON_LARGE
    | VM_FAULT_FALLBACK
)

_NAMES = (
    (VM_FAULT_OOM, "OOM"),
    (VM_FAULT_SIGBUS, "SIGBUS"),
    (VM_FAULT_MAJOR, "MAJOR"),
    (VM_FAULT_WRITE, "WRITE"),
    (VM_FAULT_HWPOISON, "HWPOISON"),
    (VM_FAULT_HWPOISON_LARGE, "HWPOISON_LARGE"),
    (VM_FAULT_SIGSEGV, "SIGSEGV"),
    (VM_FAULT_NOPAGE, "NOPAGE"),
    (VM_FAULT_LOCKED, "LOCKED"),
    (VM_FAULT_RETRY, "RETRY"),
    (VM_FAULT_FALLBACK, "FALLBACK"),
    (VM_FAULT_DONE_COW, "DONE_COW"),
    (VM_FAULT_NEEDDSYNC, "NEEDDSYNC"),
    (VM_FAULT_COMPLETED, "COMPLETED"),
)


def flag_names(value: int) -> str:
    """`0x204` -> `MAJOR|LOCKED`; `0` for a plain minor fault; unknown bits kept in hex."""
    names = [name for bit, name in _NAMES if value & bit]
    rest = value & ~sum(bit for bit, _ in _NAMES) & ~VM_FAULT_HINDEX_MASK
    if rest:
        names.append(hex(rest))
    return "|".join(names) or "0"


def fault_attrs(value: int) -> dict[str, object]:
    """What the views filter on, plus the raw value."""
    return {
        "major": bool(value & VM_FAULT_MAJOR),
        "retry": bool(value & VM_FAULT_RETRY),
        "error": bool(value & VM_FAULT_ERROR),
        "vm_fault": value,
    }
