"""A flame-graph view as a pprof profile: gzipped `perftools.profiles.Profile` protobuf.

Read by `go tool pprof`, Pyroscope, Parca and every tool built on github.com/google/pprof.

Choices, and why:
- One Function and one Location per distinct frame (name and kind), no addresses: the view has
  already merged frames by name, and pprof's reports group by function name anyway.
- Where a frame's code lives is its Location's Mapping: `[kernel.kallsyms]` for kernel frames (what
  perf and pprof's own perf converter call the kernel), `[jit]` for JIT frames, an unnamed mapping
  for user code, listed first because pprof prints the first mapping's file as the profile's
  `File:` line. Every mapping says it has functions, so no consumer tries to symbolize them again.
- The thread-name (comm) root frame stays the root frame, and is also a `comm` sample label. As a
  frame, `go tool pprof -top` still ranks the leaf functions by their own time (a root frame has no
  self weight), while `-tree`, `-peek`, the web UI's flame graph and Pyroscope's flame graph draw
  the same picture as ours and as the folded download, threads side by side. As a label, `-tagfocus
  comm=…` and Pyroscope's label filters select one thread without a frame-name regex.
- Two sample types when the weight is not a plain count: `samples` (count) first, the view's weight
  last, which is the default type (pprof defaults to the last one; `default_sample_type` says so
  too). Off-CPU weights are written in nanoseconds, the unit pprof and Pyroscope scale as time.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass

from stallscope.analysis.folded_view import PROCESS_KIND
from stallscope.interop.protobuf import bytes_field, uint_field, varint
from stallscope.interop.view import ViewFrame, ViewProfile
from stallscope.kit.units import epoch_ns

GZIP_LEVEL = 6
"""pprof files are written once and read a few times: zlib's default trades size and time well."""
NS_PER_US = 1000
COMM_LABEL = "comm"
USER_MAPPING = (1, "")
MAPPINGS = {"kernel": (2, "[kernel.kallsyms]"), "jit": (3, "[jit]")}
"""Mappings (id, file) of the kinds that have their own; every other frame is user code's, whose
mapping comes first whenever present (pprof prints the first mapping's file as the `File:` line)."""

# perftools.profiles field numbers.
_PROFILE_SAMPLE_TYPE, _PROFILE_SAMPLE, _PROFILE_MAPPING, _PROFILE_LOCATION = 1, 2, 3, 4
_PROFILE_FUNCTION, _PROFILE_STRING_TABLE = 5, 6
_PROFILE_TIME_NANOS, _PROFILE_DURATION_NANOS, _PROFILE_PERIOD_TYPE, _PROFILE_PERIOD = 9, 10, 11, 12
_PROFILE_COMMENT, _PROFILE_DEFAULT_SAMPLE_TYPE = 13, 14
_SAMPLE_LOCATION_ID, _SAMPLE_VALUE, _SAMPLE_LABEL = 1, 2, 3
_LABEL_KEY, _LABEL_STR = 1, 2
_MAPPING_ID, _MAPPING_FILENAME, _MAPPING_HAS_FUNCTIONS = 1, 5, 7
_LOCATION_ID, _LOCATION_MAPPING_ID, _LOCATION_LINE = 1, 2, 4
_LINE_FUNCTION_ID = 1
_FUNCTION_ID, _FUNCTION_NAME, _FUNCTION_SYSTEM_NAME = 1, 2, 3
_VALUE_TYPE_TYPE, _VALUE_TYPE_UNIT = 1, 2


@dataclass(frozen=True, slots=True)
class SampleType:
    """pprof's (type, unit) of a value, and how many of those units one weight unit is."""

    type: str
    unit: str
    scale: int = 1


def sample_types(profile: ViewProfile) -> list[SampleType]:
    """What each sample value counts: the count of samples first, then the view's weight if different."""
    count = SampleType("intervals" if profile.event == "off-cpu" else "samples", "count")
    if profile.unit == "samples":
        return [count]
    if profile.unit == "us":
        return [count, SampleType(profile.event, "nanoseconds", NS_PER_US)]
    if profile.unit == "ns":
        return [count, SampleType("cpu", "nanoseconds")]
    return [count, SampleType(profile.event, "count")]


class _Strings:
    """The string table: "" first, each string once."""

    def __init__(self) -> None:
        self.table: list[str] = [""]
        self._index: dict[str, int] = {"": 0}

    def __call__(self, text: str) -> int:
        index = self._index.get(text)
        if index is None:
            index = self._index[text] = len(self.table)
            self.table.append(text)
        return index


class _Locations:
    """One Function and Location per distinct frame; ids from 1."""

    def __init__(self, strings: _Strings) -> None:
        self._strings = strings
        self._by_id: dict[int, bytes] = {}  # id(frame) -> the location id's varint
        self._by_frame: dict[tuple[str, str], bytes] = {}
        self.mappings: set[int] = set()
        self.messages: list[bytes] = []
        """Location and Function fields of the profile, in the order they were met."""

    def varint_of(self, frame: ViewFrame) -> bytes:
        found = self._by_id.get(id(frame))
        if found is None:
            found = self._by_frame.get((frame.name, frame.kind))
            if found is None:
                found = self._by_frame[(frame.name, frame.kind)] = self._add(frame)
            self._by_id[id(frame)] = found
        return found

    def _add(self, frame: ViewFrame) -> bytes:
        ident = len(self._by_frame) + 1
        name = self._strings(frame.name)
        function = uint_field(_FUNCTION_ID, ident) + uint_field(_FUNCTION_NAME, name)
        function += uint_field(_FUNCTION_SYSTEM_NAME, name)
        location = uint_field(_LOCATION_ID, ident)
        if frame.kind != PROCESS_KIND:  # a thread name is no code: no mapping
            mapping = MAPPINGS.get(frame.kind, USER_MAPPING)[0]
            self.mappings.add(mapping)
            location += uint_field(_LOCATION_MAPPING_ID, mapping)
        location += bytes_field(_LOCATION_LINE, uint_field(_LINE_FUNCTION_ID, ident))
        self.messages.append(bytes_field(_PROFILE_LOCATION, location))
        self.messages.append(bytes_field(_PROFILE_FUNCTION, function))
        return varint(ident)


def encode_pprof(profile: ViewProfile) -> bytes:
    """The view as a gzipped pprof profile: the same stacks and the same total as the view."""
    return gzip.compress(profile_message(profile), compresslevel=GZIP_LEVEL, mtime=0)


def profile_message(profile: ViewProfile) -> bytes:
    """The uncompressed `Profile` message."""
    strings = _Strings()
    types = sample_types(profile)
    parts = [bytes_field(_PROFILE_SAMPLE_TYPE, _value_type(strings, t)) for t in types]
    locations = _Locations(strings)
    parts += _samples(profile, types, locations, strings)
    files = dict([USER_MAPPING, *MAPPINGS.values()])
    for ident in sorted(locations.mappings):
        mapping = uint_field(_MAPPING_ID, ident) + uint_field(_MAPPING_FILENAME, strings(files[ident]))
        parts.append(bytes_field(_PROFILE_MAPPING, mapping + uint_field(_MAPPING_HAS_FUNCTIONS, 1)))
    parts += locations.messages
    parts.append(_about(profile, types, strings))
    parts += [bytes_field(_PROFILE_STRING_TABLE, s.encode("utf-8", "surrogateescape")) for s in strings.table]
    return b"".join(parts)


def _samples(
    profile: ViewProfile, types: list[SampleType], locations: _Locations, strings: _Strings
) -> list[bytes]:
    """One Sample per stack: leaf-first location ids, its values, its thread's `comm` label."""
    comm_key = strings(COMM_LABEL)
    labels: dict[str, bytes] = {}
    scale = types[-1].scale
    varint_of = locations.varint_of
    out: list[bytes] = []
    for stack in profile.stacks:
        if not stack.frames:
            continue
        leaf_first = b"".join([varint_of(f) for f in reversed(stack.frames)])
        if len(types) == 1:
            values = varint(stack.weight)
        else:
            values = varint(stack.samples) + varint(stack.weight * scale)
        comm = stack.frames[0].name
        label = labels.get(comm)
        if label is None:
            pair = uint_field(_LABEL_KEY, comm_key) + uint_field(_LABEL_STR, strings(comm))
            label = labels[comm] = bytes_field(_SAMPLE_LABEL, pair)
        body = bytes_field(_SAMPLE_LOCATION_ID, leaf_first) + bytes_field(_SAMPLE_VALUE, values)
        out.append(bytes_field(_PROFILE_SAMPLE, body + label))
    return out


def _value_type(strings: _Strings, value: SampleType) -> bytes:
    unit = uint_field(_VALUE_TYPE_UNIT, strings(value.unit))
    return uint_field(_VALUE_TYPE_TYPE, strings(value.type)) + unit


def _about(profile: ViewProfile, types: list[SampleType], strings: _Strings) -> bytes:
    """Time span, period, comments and the default sample type: informational fields."""
    out = b""
    if profile.start is not None:
        start_ns = epoch_ns(profile.start)
        out += uint_field(_PROFILE_TIME_NANOS, start_ns)
        if profile.end is not None and epoch_ns(profile.end) > start_ns:
            out += uint_field(_PROFILE_DURATION_NANOS, epoch_ns(profile.end) - start_ns)
    weight = types[-1]
    out += bytes_field(_PROFILE_PERIOD_TYPE, _value_type(strings, weight))
    samples = profile.total_samples
    if profile.unit in ("ns", "events") and samples:
        out += uint_field(_PROFILE_PERIOD, round(profile.total / samples))
    for comment in profile.comments:
        out += uint_field(_PROFILE_COMMENT, strings(comment))
    return out + uint_field(_PROFILE_DEFAULT_SAMPLE_TYPE, strings(weight.type))
