"""Raw frame lines to interned stacks, with the caches that make the parser fast.

Most samples repeat a stack seen before, and most frame lines repeat too, so work is done once per
distinct line and once per distinct stack body; everything else is a dictionary hit. Frames and stacks
are interned: two samples with the same stack share one tuple object, so downstream code can key on
`id(stack)` (the table keeps every stack it returned alive). Each frame also gets a 4-byte code, and a
stack is keyed by its frames' codes joined, which is much cheaper to build and hash than a tuple of
frames. A code is the frame's number, so a new stack's frames are read back from its key in one
C-level pass (a few times faster than looking each of its lines up again).

Memory grows with distinct stacks and frames, up to a budget. The caches keyed by raw bytes (lines,
stack bodies) are capped and emptied when full, so a capture of endless unique addresses costs time,
never unbounded memory. The interned frames and stacks themselves are bounded too: past
`MAX_INTERNED_REFS` frame references the whole table starts again (codes restart with it, so
nothing keyed on the old codes may survive). A capture with millions of distinct stacks then gets
equal stacks as distinct objects across a reset; everything downstream keys on `id(stack)` only as
a shortcut and merges equal stacks by content (the stack dictionary by digest, folding by text).
"""

from __future__ import annotations

import struct

from stallscope.ingest.model import Frame, FrameKind, InternedStacks, Stack, StackCodes
from stallscope.ingest.perf_script.naming import (
    NamingOptions,
    name_frames,
    split_frame_line,
    strip_offset,
)

_CODE = struct.Struct("I")
"""A frame's code: its number as a native unsigned int, so `memoryview.cast` reads codes back."""

MAX_CACHED_LINES = 250_000
MAX_CACHED_BODY_BYTES = 64 << 20
MAX_INTERNED_REFS = 8_000_000
"""Frames plus frame references in interned stacks; about 20 bytes each, so some 160 MB at most
(measured 33-35 MB per 100k distinct 16-frame stacks)."""


class _LineCache:
    """The frame codes of each distinct frame line, for one value of the Java flag."""

    __slots__ = ("codes", "named", "not_frames")

    def __init__(self) -> None:
        self.codes: dict[bytes, bytes] = {}
        self.named: dict[tuple[str, str, str], bytes] = {}
        self.not_frames: set[bytes] = set()

    def clear_if_full(self) -> None:
        if len(self.codes) >= MAX_CACHED_LINES:
            self.codes.clear()
        if len(self.named) >= MAX_CACHED_LINES:
            self.named.clear()
        if len(self.not_frames) >= MAX_CACHED_LINES:
            self.not_frames.clear()


class StackTable:
    """Interns frames and stacks; names each distinct raw frame line once."""

    def __init__(self, options: NamingOptions, codes: StackCodes | None = None) -> None:
        self._options = options
        self.codes = codes or StackCodes()
        """Where the stacks and their codes are shown to storage (`ParseReport.stack_codes`)."""
        self._reset()

    def _reset(self) -> None:
        """Forget every frame, stack and cached line: the table starts again, codes from zero."""
        self._frames: dict[FrameKind, dict[str, Frame]] = {kind: {} for kind in FrameKind}
        interned = self.codes.current = InternedStacks()
        self._frame_list = interned.frames
        """Frames by number: a code is a frame's number (`_CODE`), so a stack's key reads back as
        its frames (`frames_of`) without a look-up per line."""
        self._frame_codes: dict[int, bytes] = {}
        self._stacks = interned.stacks
        self._codes_of = interned.codes_of
        # One cache per Java flag: the Java tidy-up makes a line's name depend on the comm.
        self._lines = (_LineCache(), _LineCache())
        self._bodies: tuple[dict[bytes, tuple[Stack, int]], dict[bytes, tuple[Stack, int]]] = ({}, {})
        self._seen_bodies: set[int] = set()
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
            self._frame_codes[id(found)] = _CODE.pack(len(self._frame_list))
            self._frame_list.append(found)
            self._refs += 1
        return found

    def frames_of(self, codes: bytes) -> tuple[Frame, ...]:
        """The frames whose codes are joined in `codes`, in their order."""
        return tuple(map(self._frame_list.__getitem__, memoryview(codes).cast("I")))

    def line_frames(self, line: bytes, java: bool) -> tuple[Frame, ...] | None:
        """The frames one frame line stands for, caller first; None if it is not a frame line."""
        self._lines[java].clear_if_full()
        codes = self._learn(line, java)
        return None if codes is None else self.frames_of(codes)

    def _learn(self, line: bytes, java: bool) -> bytes | None:
        """The codes of the frames one frame line stands for; None if it is not a frame line."""
        cache = self._lines[java]
        found = cache.codes.get(line)
        if found is not None or line in cache.not_frames:
            return found
        parts = split_frame_line(line.decode("utf-8", "replace"))
        if parts is None:
            cache.not_frames.add(line)
            return None
        address, func, module = parts
        # Lines differ by address far more often than by name: name each (symbol, module) once.
        key = (strip_offset(func), module, address if self._options.addrs else "")
        found = cache.named.get(key)
        if found is None:
            named = name_frames(address, func, module, java=java, options=self._options)
            found = cache.named[key] = self._code(tuple(self.frame(name, kind) for name, kind in named))
        cache.codes[line] = found
        return found

    def _code(self, frames: tuple[Frame, ...]) -> bytes:
        return b"".join([self._frame_codes[id(frame)] for frame in frames])

    def intern(self, frames: tuple[Frame, ...]) -> Stack:
        """The shared tuple for these frames (which must come from `frame`)."""
        key = self._code(frames)
        stack = self._stacks.get(key)
        if stack is None:
            stack = self._stacks[key] = frames
            self._codes_of[id(stack)] = key
            self._refs += len(frames)
        return stack

    def stack_of_lines(self, lines: list[bytes], java: bool) -> Stack | None:
        """Frame lines as perf prints them (leaf first) to a stack; None if one is not a frame line."""
        cache = self._lines[java]
        cache.clear_if_full()
        codes = cache.codes
        # The lines nearest the leaf are the ones most often new (their addresses and offsets differ
        # from sample to sample): learnt first, up to the first known one, the join below rarely
        # fails near its end, which cost a wasted join and a second pass over every line for three
        # samples in five of a deep capture.
        leafward = 0
        while leafward < len(lines) and lines[leafward] not in codes:
            if self._learn(lines[leafward], java) is None:
                return None
            leafward += 1
        lines.reverse()
        try:
            key = b"".join(map(codes.__getitem__, lines))  # one C-level pass over the lines
        except KeyError:
            for line in [line for line in lines if line not in codes]:
                if self._learn(line, java) is None:
                    return None
            key = b"".join(map(codes.__getitem__, lines))
        stack = self._stacks.get(key)
        if stack is None:
            stack = self._stacks[key] = self.frames_of(key)
            self._codes_of[id(stack)] = key
            self._refs += len(stack)
        return stack

    def body_stack(self, body: bytes, java: bool) -> tuple[Stack, int] | None:
        """`stack_of_lines` for the newline-joined lines of one sample, with the number of those lines
        (the parser counts lines by them); None if one is not a frame line.

        A body is cached the second time it comes, not the first: most bodies of a deep capture come
        once (each sample's leaf differs), and keeping every one cost more than it saved (15% of the
        parse on a system-wide capture during a build), while a capture that repeats its stacks gets
        its hits from the second sighting on. The first sighting leaves only the body's hash, which
        the cache look-up has just computed (bytes keep their hash).
        """
        cache = self._bodies[java]
        known = cache.get(body)
        if known is None:
            lines = body.split(b"\n")
            stack = self.stack_of_lines(lines, java)
            if stack is None:
                return None
            known = (stack, len(lines))
            seen = self._seen_bodies
            digest = hash(body)
            if digest not in seen:
                if len(seen) >= MAX_CACHED_LINES:
                    seen.clear()
                seen.add(digest)
            else:
                if self._body_bytes > MAX_CACHED_BODY_BYTES:
                    self._bodies[0].clear()
                    self._bodies[1].clear()
                    self._body_bytes = 0
                cache[body] = known
                self._body_bytes += len(body)
        return known
