"""How findings say numbers and name threads, the same way in every detector."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from stallscope.analysis.findings.digest import StackNames
from stallscope.analysis.findings.finding import ThreadRef
from stallscope.analysis.findings.profile import ThreadKey
from stallscope.kit.units import duration_text

MAX_NAMED = 3
STACK_FRAMES_SHOWN = 6


def pct(share: float) -> str:
    return f"{share * 100:.1f}%"


def duration(ns: int | float | None) -> str:
    """As every view and command writes a duration (`kit.units.duration_text`)."""
    return "-" if ns is None else duration_text(ns)


def count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def thread_name(key: ThreadKey) -> str:
    _, tid, comm = key
    return f"{comm} ({tid if tid is not None else '?'})"


def threads_phrase(keys: Iterable[ThreadKey]) -> str:
    """`3 threads (a (1), b (2), c (3))`, naming at most a few."""
    keys = list(keys)
    named = ", ".join(thread_name(k) for k in keys[:MAX_NAMED])
    more = ", ..." if len(keys) > MAX_NAMED else ""
    return f"{count(len(keys), 'thread')} ({named}{more})"


def thread_refs(host: str, keys: Iterable[ThreadKey]) -> list[ThreadRef]:
    return [ThreadRef(host, pid, tid, comm) for pid, tid, comm in keys]


def stack_text(stack: StackNames) -> str:
    """The innermost frames of a stack, innermost first: `a <- b <- c`."""
    frames = list(reversed(stack))[:STACK_FRAMES_SHOWN]
    more = " <- ..." if len(stack) > STACK_FRAMES_SHOWN else ""
    return " <- ".join(frames) + more


def top_stack(stacks: Counter[StackNames]) -> StackNames:
    return stacks.most_common(1)[0][0] if stacks else ()


def top_names(counter: Counter[str], total: int, n: int = 3) -> str:
    """`a (60%), b (30%)`: the heaviest keys and their share of `total`."""
    return ", ".join(f"{name} ({pct(w / total if total else 0)})" for name, w in counter.most_common(n))
