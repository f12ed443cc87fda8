"""Raw frame lines to interned stacks, with the caches that make the parser fast.

Most samples repeat a stack seen before, and most frame lines repeat too, so work is done once per
distinct line and once per distinct stack body; everything else is a dictionary hit. Frames and stacks
are interned: two samples with the same stack share one tuple object, so downstream code can key on
`id(stack)` (the table keeps every stack it returned alive). Each frame also gets a 4-byte code, and a
stack is keyed by its frames' codes joined, which is much cheaper to build and hash than a tuple of
frames.

Memory grows with distinct stacks and frames, up to a budget. The caches keyed by raw bytes (lines,
stack bodies) are capped and emptied when full, so a capture of endless unique addresses costs time,
never unbounded memory. The interned frames and stacks themselves are bounded too: past
`MAX_INTERNED_REFS` frame references the whole table starts again (codes restart with it, so
nothing keyed on the old codes may survive). A capture with millions of distinct stacks then gets
equal stacks as distinct objects across a reset; everything downstream keys on `id(stack)` only as
a shortcut and merges equal stacks by content (the stack dictionary by digest, folding by text).
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter

from stallscope.ingest.model import Frame, FrameKind, Stack
from stallscope.ingest.perf_script.naming import (
    NamingOptions,
    name_frames,
    split_frame_line,
    strip_offset,
)

MAX_CACHED_LINES = 250_000
MAX_CACHED_BODY_BYTES = 64 << 20
MAX_INTERNED_REFS = 8_000_000
"""Frames plus frame references in interned stacks; about 20 bytes each, so some 160 MB at most
(measured 33-35 MB per 100k distinct 16-frame stacks)."""


class _LineCache:
    """Frames and frame codes of each distinct frame line, for one value of the Java flag."""

    __slots__ = ("codes", "frames", "named", "not_frames")

    def __init__(self) -> None:
        self.frames: dict[bytes, tuple[Frame, ...]] = {}
        self.codes: dict[bytes, bytes] = {}
        self.named: dict[tuple[str, str, str], tuple[tuple[Frame, ...], bytes]] = {}
        self.not_frames: set[bytes] = set()

    def clear_if_full(self) -> None:
        if len(self.codes) >= MAX_CACHED_LINES:
            self.frames.clear()
            self.codes.clear()
        if len(self.named) >= MAX_CACHED_LINES:
            self.named.clear()
        if len(self.not_frames) >= MAX_CACHED_LINES:
            self.not_frames.clear()


class StackTable:
    """Interns frames and stacks; names each distinct raw frame line once."""

    def __init__(self, options: NamingOptions) -> None:
        self._options = options
        self._reset()

    def _reset(self) -> None:
        """Forget every frame, stack and cached line: the table starts again, codes from zero."""
        self._frames: dict[FrameKind, dict[str, Frame]] = {kind: {} for kind in FrameKind}
        self._frame_codes: dict[int, bytes] = {}
        self._stacks: dict[bytes, Stack] = {b"": ()}
        # One cache per Java flag: the Java tidy-up makes a line's name depend on the comm.
        self._lines = (_LineCache(), _LineCache())
        self._bodies: tuple[dict[bytes, Stack], dict[bytes, Stack]] = ({}, {})
        self._body_bytes = 0
        self._refs = 0

    def start_sample(self) -> None:
        """Called between samples: the one moment a reset cannot split a stack being built."""
        if self._refs > MAX_INTERNED_REFS:
            self._reset()

    def frame(self, name: str, kind: FrameKind) -> Frame:
        by_name = self._frames[kind]
        found = by_name.get(name)
        if found is None:
            found = by_name[name] = Frame(name, kind)
            self._frame_codes[id(found)] = len(self._frame_codes).to_bytes(4, "little")
            self._refs += 1
        return found

    def line_frames(self, line: bytes, java: bool) -> tuple[Frame, ...] | None:
        """The frames one frame line stands for, caller first; None if it is not a frame line."""
        self._lines[java].clear_if_full()
        return self._learn(line, java)

    def _learn(self, line: bytes, java: bool) -> tuple[Frame, ...] | None:
        cache = self._lines[java]
        found = cache.frames.get(line)
        if found is not None or line in cache.not_frames:
            return found
        parts = split_frame_line(line.decode("utf-8", "replace"))
        if parts is None:
            cache.not_frames.add(line)
            return None
        address, func, module = parts
        # Lines differ by address far more often than by name: name each (symbol, module) once.
        key = (strip_offset(func), module, address if self._options.addrs else "")
        known = cache.named.get(key)
        if known is None:
            named = name_frames(address, func, module, java=java, options=self._options)
            frames = tuple(self.frame(name, kind) for name, kind in named)
            known = cache.named[key] = (frames, self._code(frames))
        cache.frames[line], cache.codes[line] = known
        return known[0]

    def _code(self, frames: tuple[Frame, ...]) -> bytes:
        return b"".join([self._frame_codes[id(frame)] for frame in frames])

    def intern(self, frames: tuple[Frame, ...]) -> Stack:
        """The shared tuple for these frames (which must come from `frame`)."""
        key = self._code(frames)
        stack = self._stacks.get(key)
        if stack is None:
            stack = self._stacks[key] = frames
            self._refs += len(frames)
        return stack

    def stack_of_lines(self, lines: list[bytes], java: bool) -> Stack | None:
        """Frame lines as perf prints them (leaf first) to a stack; None if one is not a frame line."""
        cache = self._lines[java]
        cache.clear_if_full()
        lines.reverse()
        if len(lines) == 1:
            frames = self._learn(lines[0], java)
            return None if frames is None else self.intern(frames)
        lookup = itemgetter(*lines)  # one C-level pass over the lines
        try:
            codes = lookup(cache.codes)
        except KeyError:
            for line in lines:
                if line not in cache.codes and self._learn(line, java) is None:
                    return None
            codes = lookup(cache.codes)
        key = b"".join(codes)
        stack = self._stacks.get(key)
        if stack is None:
            stack = self._stacks[key] = tuple(chain.from_iterable(lookup(cache.frames)))
            self._refs += len(stack)
        return stack

    def stack_of_body(self, body: bytes, java: bool) -> Stack | None:
        """Like `stack_of_lines` for the newline-joined lines of one sample, cached by those bytes."""
        cache = self._bodies[java]
        stack = cache.get(body)
        if stack is None:
            stack = self.stack_of_lines(body.split(b"\n"), java)
            if stack is None:
                return None
            if self._body_bytes > MAX_CACHED_BODY_BYTES:
                self._bodies[0].clear()
                self._bodies[1].clear()
                self._body_bytes = 0
            cache[body] = stack
            self._body_bytes += len(body)
        return stack
