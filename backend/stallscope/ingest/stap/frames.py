"""One line of systemtap's `print_ubacktrace()` / `print_backtrace()` output to a frame.

systemtap prints each frame with its `_STP_SYM_FULL` flags (runtime/sym.h, runtime/sym.c,
`_stp_snprint_addr`): a leading space, the address, then what it could resolve:

    " 0x7f1a2b3c4d5e : __libc_malloc+0x0/0x300 [/usr/lib64/libc-2.28.so]"   symbol, offset/size, module
    " 0x7f1a2b3c4d5e : __libc_malloc+0x0/0x300"                             no module name
    " 0x7f1a2b3c4d5e [/usr/lib64/libfoo.so+0x1234/0x5000]"                  no symbol: module+offset
    " 0x7f1a2b3c4d5e"                                                       nothing resolved

with ` (inexact)` appended when the unwinder guessed. Kernel frames (`print_backtrace()`) name the
module `kernel` or a kernel module (`ext4`), never a path. Names lose their `+offset/size`; an
unresolved frame is named after its module's base name (`[libfoo.so]`) as perf's are, or `[unknown]`.
"""

from __future__ import annotations

import re

from stallscope.ingest.model import FrameKind

UNKNOWN = "[unknown]"
_FRAME = re.compile(
    r"""\s+0x[0-9a-fA-F]+
    (?:
        \s:\s(?P<symbol>\S+?)(?:\+0x[0-9a-fA-F]+(?:/0x[0-9a-fA-F]+)?)?(?:\s\[(?P<module>[^\]]*)\])?
      | \s\[(?P<bare_module>[^\]+]*)(?:\+0x[0-9a-fA-F]+(?:/0x[0-9a-fA-F]+)?)?\]
    )?
    (?:\s\(inexact\))?\s*\Z""",
    re.VERBOSE,
)

NamedFrame = tuple[str, FrameKind]


def parse_frame_line(text: str) -> NamedFrame | None:
    """The frame's name and kind; None if the line is not a backtrace line."""
    match = _FRAME.match(text)
    if match is None:
        return None
    symbol, module, bare_module = match.group("symbol", "module", "bare_module")
    if symbol is not None:
        return symbol.replace(";", ":"), module_kind(module)
    if bare_module:
        return f"[{bare_module.rsplit('/', 1)[-1]}]", module_kind(bare_module)
    return UNKNOWN, FrameKind.UNKNOWN


def module_kind(module: str | None) -> FrameKind:
    """Paths are user-space objects; `kernel` and kernel modules (`ext4`) are not."""
    if module is None:
        return FrameKind.UNKNOWN
    return FrameKind.USER if "/" in module else FrameKind.KERNEL
