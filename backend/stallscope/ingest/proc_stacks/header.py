"""The line before each stack dump, and the time stamps between rounds of dumps.

Two kinds of header name a dump:

- a `#` line of `key=value` fields, as a shell loop prints it: `# ts_us=1795625975022772 pid=32258
  tid=32260 state=D comm=io worker`. Values run to the next ` key=` (a thread name may hold spaces);
  keys are read case-blind, others ignored. A leading field-less token that reads as a time is the
  time (`# 2026-11-25T16:59:38.107Z tid=… comm=…`). A `#` line with a time and no thread is a stamp
  for the dumps after it; one with neither is a comment.
- `==> /proc/32258/task/32260/stack <==`, the line `tail`/`head` print before each of several files:
  pid and tid come from the path, and the time from the last stamp before it.

A stamp is also a line of its own between rounds: `date` (C locale, UTC or a numeric zone), `date
+%s.%N` or `date -Ins`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from stallscope.ingest.model import ParseReport
from stallscope.ingest.proc_stacks.times import BadTime, TimeText
from stallscope.ingest.value_ranges import MAX_TIME_DIGITS, fits_time

TIME_KEYS = ("ts_us", "ts_ns", "ts_ms", "ts_s", "ts", "time", "timestamp", "t")
"""Keys of the dump's time, in the order they are looked for."""
EXPLICIT_SCALES = {"ts_us": 1_000, "ts_ns": 1, "ts_ms": 1_000_000, "ts_s": 1_000_000_000}
"""Keys whose unit is in their name: nanoseconds per unit of the value."""
PID_KEYS = ("pid", "tgid")
TID_KEYS = ("tid", "lwp", "spid")
COMM_KEYS = ("comm", "name", "thread")
STATE_KEYS = ("state", "stat")

MAX_CACHED_HEADERS = 50_000
"""Distinct thread fields remembered (one per thread of a loop, usually)."""
_LEADING_TIME = re.compile(
    rb"#[ \t]*(?:(?P<key>(?i:ts_us|ts_ns|ts_ms|ts_s|ts|time|timestamp|t))="
    rb"(?P<keyed>\S+(?: \d\d:\S+)?)|(?P<bare>\d{4}-\d\d-\d\d[T ]\S+|\d{9,}(?:\.\d+)?))"
    rb"[ \t]+(?P<rest>\S(?:.*\S)?)\s*"
)
"""A header that starts with its time (`# ts_us=… tid=…`, `# 2026-11-25T16:59:38Z tid=…`)."""
_FIELD = re.compile(r"(?:\A|\s)([A-Za-z_][A-Za-z0-9_]*)=")
_ID = re.compile(r"\d{1,9}")
_STATE = re.compile(r"[A-Za-z]\+?")
_TAIL = re.compile(rb"==> (.*) <==")
_PROC_PATH = re.compile(rb"(?:.*/)?proc/(\d{1,9})(?:/task/(\d{1,9}))?/stack")
_STAMP_LIKE = re.compile(r"\d{9,}(?:\.\d+)?|\d{4}-\d\d-\d\d[T ].*")
_MONTHS = {
    month: number
    for number, month in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
_DATE = re.compile(
    r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) +([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) +(\S+) +(\d{4})"
)
_UTC_ZONES = frozenset({"UTC", "GMT", "Z", "UT"})
_NUMERIC_ZONE = re.compile(r"[+-]\d{4}")


ThreadFields = tuple[int | None, int | None, str, str | None, bool]
"""pid, tid, comm, state, and whether they name a thread at all."""


@dataclass(slots=True)
class DumpHeader:
    """Who a dump is of and when; `names_thread` is False for a stamp (time only) or a comment."""

    line: int
    time_ns: int | None
    pid: int | None = None
    tid: int | None = None
    comm: str = ""
    state: str | None = None
    names_thread: bool = True


class HeaderReader:
    """Reads the header and stamp lines of one file, remembering the parts that repeat dump after dump."""

    def __init__(self, report: ParseReport) -> None:
        self._report = report
        self._times = TimeText()
        self._zoneless_line: int | None = None
        self._warned_states: set[str] = set()
        self._threads: dict[bytes, ThreadFields] = {}
        self._paths: dict[bytes, tuple[int | None, int | None]] = {}

    def tail(self, raw: bytes, line: int, stamp_ns: int | None) -> DumpHeader:
        """`==> /proc/PID/task/TID/stack <==` (or `/proc/PID/stack`: the thread-group leader)."""
        ids = self._paths.get(raw)
        if ids is None:
            ids = self._path_ids(raw, line)
            if len(self._paths) >= MAX_CACHED_HEADERS:
                self._paths.clear()
            self._paths[raw] = ids
        return DumpHeader(line, stamp_ns, *ids)

    def _path_ids(self, raw: bytes, line: int) -> tuple[int | None, int | None]:
        path = _TAIL.fullmatch(raw.rstrip())
        found = _PROC_PATH.fullmatch(path.group(1)) if path is not None else None
        if found is None:
            self._report.warn(line, "a `==>` header without a /proc/PID[/task/TID]/stack path; no thread ids")
            return None, None
        pid = int(found.group(1))
        return pid, int(found.group(2)) if found.group(2) is not None else pid

    def fields(self, raw: bytes, line: int, stamp_ns: int | None) -> DumpHeader:
        """A `# key=value …` line. Raises BadTime when its time cannot be read.

        Loops print the time first and the same thread fields dump after dump: what follows a
        leading time is read once per distinct text and remembered.
        """
        lead = _LEADING_TIME.fullmatch(raw)
        if lead is None:
            return self._fields(raw, line, stamp_ns)
        key, value = lead.group("key"), lead.group("keyed") or lead.group("bare")
        time_ns = self._time(key.decode().lower() if key else None, value.decode("utf-8", "replace"), line)
        rest = lead.group("rest")
        thread = self._threads.get(rest)
        if thread is None:
            if len(self._threads) >= MAX_CACHED_HEADERS:
                self._threads.clear()
            thread = self._threads[rest] = self._thread(_values(rest.decode("utf-8", "replace")), line)
        pid, tid, comm, state, names_thread = thread
        return DumpHeader(line, time_ns, pid, tid, comm, state, names_thread)

    def _fields(self, raw: bytes, line: int, stamp_ns: int | None) -> DumpHeader:
        text = raw[1:].decode("utf-8", "replace").strip()
        values = _values(text)
        first = _FIELD.search(text)
        lead = text[: first.start()].strip() if first is not None else text
        time_ns = self._field_time(values, lead, line)
        pid, tid, comm, state, names_thread = self._thread(values, line)
        if not names_thread and time_ns is None:
            return DumpHeader(line, None, names_thread=False)  # a comment
        return DumpHeader(line, stamp_ns if time_ns is None else time_ns, pid, tid, comm, state, names_thread)

    def _thread(self, values: dict[str, str], line: int) -> ThreadFields:
        pid = self._id(values, PID_KEYS, line)
        tid = self._id(values, TID_KEYS, line)
        comm = next((values[k] for k in COMM_KEYS if k in values), None)
        state = self._state(values, line)
        names_thread = pid is not None or tid is not None or comm is not None or state is not None
        return pid, tid, comm or "", state, names_thread

    def stamp(self, raw: bytes, line: int) -> int | None:
        """The time a line between dumps stands for, or None when it is not a time stamp.

        Raises BadTime for a stamp that cannot be placed (a time zone named by an abbreviation).
        """
        text = raw.decode("utf-8", "replace").strip()
        date = _DATE.fullmatch(text)
        if date is not None:
            return _date_ns(date)
        if _STAMP_LIKE.fullmatch(text) is None:
            return None
        return self._time(None, text, line)

    def _field_time(self, values: dict[str, str], lead: str, line: int) -> int | None:
        for key in TIME_KEYS:
            value = values.get(key)
            if value is not None:
                return self._time(key, value, line)
        if lead and _STAMP_LIKE.fullmatch(lead):
            return self._time(None, lead, line)
        return None

    def _time(self, key: str | None, value: str, line: int) -> int:
        scale = EXPLICIT_SCALES.get(key) if key is not None else None
        if scale is not None and value.isdigit() and len(value) <= MAX_TIME_DIGITS:
            time_ns = int(value) * scale  # the usual `ts_us=1795625975022772`, without a regex
            if fits_time(time_ns):
                return time_ns
        time_ns = self._times.read(value, scale)
        if self._times.zoneless and self._zoneless_line is None:
            self._zoneless_line = line
            self._report.warn(line, "ISO times without a time zone; read as UTC")
        return time_ns

    def _id(self, values: dict[str, str], keys: tuple[str, ...], line: int) -> int | None:
        for key in keys:
            value = values.get(key)
            if value is None:
                continue
            if _ID.fullmatch(value):
                return int(value)
            self._report.warn(line, f"{key}={value[:40]!r} is not a thread or process id; left out")
            return None
        return None

    def _state(self, values: dict[str, str], line: int) -> str | None:
        value = next((values[k] for k in STATE_KEYS if k in values), None)
        if not value:
            return None
        letter = value.split(None, 1)[0]  # `D (disk sleep)`, as /proc/PID/status prints it
        if _STATE.fullmatch(letter):
            return letter
        if letter not in self._warned_states and len(self._warned_states) < 10:
            self._warned_states.add(letter)
            self._report.warn(line, f"state {value[:40]!r} is not a scheduler state (S, D, R, …); left out")
        return None


def _values(text: str) -> dict[str, str]:
    """`key=value` fields by lowercased key (the first of a repeated key): values run to the next key."""
    matches = list(_FIELD.finditer(text))
    values: dict[str, str] = {}
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        values.setdefault(match.group(1).lower(), _unquote(text[match.end() : end].strip()))
    return values


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _date_ns(date: re.Match[str]) -> int:
    """`Wed Nov 25 16:59:41 UTC 2026`, date(1)'s default output in the C locale."""
    month, day, hour, minute, second, zone, year = date.groups()
    if zone in _UTC_ZONES:
        offset_s = 0
    elif _NUMERIC_ZONE.fullmatch(zone):
        offset_s = (int(zone[1:3]) * 3600 + int(zone[3:5]) * 60) * (1 if zone[0] == "+" else -1)
    else:
        raise BadTime(
            f"the time zone {zone!r} is an abbreviation that names no one offset; record stamps with "
            "`date -Ins` or `date +%s.%N`, or run date with TZ=UTC"
        )
    try:
        day_start = datetime(int(year), _MONTHS.get(month, 0), int(day), tzinfo=UTC)
        moment = day_start.replace(hour=int(hour), minute=int(minute), second=int(second))
    except ValueError as exc:
        raise BadTime(f"{date.group(0)!r} is not a date") from exc
    return (int(moment.timestamp()) - offset_s) * 1_000_000_000
