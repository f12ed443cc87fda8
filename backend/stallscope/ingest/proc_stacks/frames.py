"""The kernel's /proc/PID/task/TID/stack lines to frames, named the way perf script's kernel frames are.

The kernel prints one line a frame, innermost first, as `[<address>] %pB`: the address is `0` unless
the reader may see kernel pointers (and always `0` since 4.16), then `symbol+0xoffset/0xsize`, with
` [module]` (or ` [module build-id]`) after frames of a loadable module, or the bare `0x...` address
when the kernel has no symbol for it. Kernels before 4.13 end every stack with a
`[<ffffffffffffffff>] 0xffffffffffffffff` line that stands for no frame.

As in perf script's naming, the `+0x1a/0x60` is dropped and the module is not part of the name; `;`
becomes `:` (it would split a folded line); an address with no symbol is `[unknown]`. Every frame
is a kernel frame.
"""

from __future__ import annotations

import re

from stallscope.ingest.model import Frame, FrameKind, Stack

UNKNOWN = "[unknown]"
END_OF_STACK = "0xffffffffffffffff"
FRAME_LINE = re.compile(rb"\s*\[<[0-9a-fA-F]+>\] ")
"""The start of a frame line: what tells this format apart from every other stack text."""
_OFFSET = re.compile(r"\+0x[0-9a-fA-F]+(?:/0x[0-9a-fA-F]+)?\Z")
_MODULE = re.compile(r" \[[^\[\]]*\]\Z")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+\Z")


def frame_name(symbol: str) -> str | None:
    """`ext4_sync_file+0x226/0x2d0 [ext4]` -> `ext4_sync_file`; None for the old end-of-stack line."""
    text = _MODULE.sub("", symbol.strip())
    text = _OFFSET.sub("", text)
    if _ADDRESS.fullmatch(text):
        return None if text.lower() == END_OF_STACK else UNKNOWN
    if not text:
        return UNKNOWN
    return text.replace(";", ":") if ";" in text else text


def frame_symbol(line: bytes) -> str | None:
    """What follows `[<address>] ` on a frame line; None when the line is not a frame line."""
    start = FRAME_LINE.match(line)
    if start is None:
        return None
    return line[start.end() :].decode("utf-8", "replace")


class FrameNames:
    """Frame objects shared by every stack of a parse: one per distinct name, bounded."""

    MAX_FRAMES = 50_000

    def __init__(self) -> None:
        self._frames: dict[str, Frame] = {}

    def stack(self, symbols: list[str]) -> Stack:
        """Frames root first from the symbols as the kernel lists them, innermost first."""
        frames: list[Frame] = []
        for symbol in reversed(symbols):
            name = frame_name(symbol)
            if name is not None:
                frames.append(self._frame(name))
        return tuple(frames)

    def _frame(self, name: str) -> Frame:
        frame = self._frames.get(name)
        if frame is None:
            if len(self._frames) >= self.MAX_FRAMES:
                self._frames.clear()
            frame = self._frames[name] = Frame(name, FrameKind.KERNEL)
        return frame
