"""One DTrace stack line (`libc.so.1`__read+0xa`) to a frame name and kind.

Names follow FlameGraph's stackcollapse.pl and inferno's collapse-dtrace: the module stays in the name
(`libc.so.1`__read`), the `+offset` is dropped, `;` becomes `:` (it would split a folded line), and a
frame with no symbol stays as its bare hex address.

DTrace prints kernel (`stack()`) and user (`ustack()`) frames alike. A stack is taken for a kernel one
when it holds a frame of the core kernel modules (`unix`, `genunix` on illumos and Solaris, `kernel` on
FreeBSD and macOS); its frames from modules that are not shared libraries are then kernel frames too
(`zfs`, `nfs`, `specfs`...).
"""

from __future__ import annotations

import re

from stallscope.ingest.model import FrameKind

CORE_KERNEL_MODULES = frozenset({"unix", "genunix", "kernel", "mach_kernel"})
_OFFSET = re.compile(r"\+(?:0x[0-9a-fA-F]+|\d+)\Z")


def frame_name(line: str) -> str:
    """`  libc.so.1`__read+0xa` -> `libc.so.1`__read`."""
    text = _OFFSET.sub("", line.strip())
    return text.replace(";", ":") if ";" in text else text


def module_of(name: str) -> str | None:
    module, tick, _ = name.partition("`")
    return module if tick else None


def is_shared_library(module: str) -> bool:
    return ".so" in module or module.endswith(".dylib") or "/" in module


def kinds_of(names: list[str]) -> list[FrameKind]:
    """Kinds of one stack's frames (see the module docstring for the kernel rule)."""
    modules = [module_of(name) for name in names]
    kernel = any(module in CORE_KERNEL_MODULES for module in modules if module is not None)
    kinds = []
    for module in modules:
        if module is None:
            kinds.append(FrameKind.UNKNOWN)
        elif kernel and not is_shared_library(module):
            kinds.append(FrameKind.KERNEL)
        else:
            kinds.append(FrameKind.USER)
    return kinds
