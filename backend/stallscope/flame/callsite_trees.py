"""Each capture's call-site tree: built after its parse and stored, read on first use, kept in a
bounded cache.

A capture's tree holds every (process, stack) pair its samples and off-CPU events have, whatever a
view later selects: the tree of the whole capture serves every range, thread and event filter. A
parsed capture never changes (a re-parse changes `parsed_at`, which is part of every key), so a
tree is built once (`build_and_store`, run by the parse job) and read back by every process. A view
over several captures merges their trees, and the merge is cached too.

The frames come over as one `bytea` (`array_send` of every stack, concatenated by the server), so a
capture's two million frame ids cost one round trip and a few numpy operations instead of a Python
list per stack.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis import callsite_diff
from stallscope.analysis.callsite_diff import NamedTree
from stallscope.analysis.callsites import CallsiteTree, Stacks, build, merge
from stallscope.flame import callsite_store, repository, sample_times
from stallscope.kit.lru import LruCache
from stallscope.models import Capture

log = logging.getLogger(__name__)

CACHE_BYTES = 32 * 1024 * 1024
"""Trees kept per process: a 350,000-node capture's tree takes about 5 MB, 9 MB with its diff's parts
(the tree merged by name, the function index), and reads back from its stored copy in a few
milliseconds, so the cache holds a working set, not every capture browsed."""

_PAIRS = """
    SELECT comm, stack_id FROM capture_stack_totals WHERE capture_id = :id GROUP BY 1, 2
    UNION
    SELECT comm, stack_id FROM events WHERE capture_id = :id AND stack_id IS NOT NULL GROUP BY 1, 2
"""
_FRAMES = """
    SELECT array_agg(id ORDER BY id), array_agg(cardinality(frame_ids) ORDER BY id),
           string_agg(array_send(frame_ids), ''::bytea ORDER BY id)
    FROM stacks WHERE id = ANY(:ids)
"""
_WHOLE = """
    SELECT coalesce(array_agg(event), '{}'), coalesce(array_agg(comm), '{}'),
           coalesce(array_agg(stack_id), '{}'), coalesce(array_agg(weight), '{}'),
           coalesce(array_agg(samples), '{}')
    FROM (SELECT event, comm, stack_id, sum(weight)::bigint AS weight, sum(samples)::bigint AS samples
          FROM capture_stack_totals WHERE capture_id = :id GROUP BY 1, 2, 3) AS t
"""
ARRAY_HEADER = 20
"""Bytes `array_send` writes before a one-dimensional array's elements (ndim, flags, type, size, base)."""
EMPTY_ARRAY = 12
"""Bytes `array_send` writes for an empty array (ndim 0: no dimension)."""


def stacks_of(session: Session, capture_id: int) -> Stacks:
    """Every (process, stack) pair of the capture with its frames, root first."""
    pairs = session.execute(text(_PAIRS), {"id": capture_id}).all()
    comms = sorted({comm for comm, _ in pairs})
    comm_index = {name: i for i, name in enumerate(comms)}
    comm = np.fromiter((comm_index[c] for c, _ in pairs), dtype=np.int32, count=len(pairs))
    stack = np.fromiter((s for _, s in pairs), dtype=np.int64, count=len(pairs))
    ids, lengths, frames = _frames(session, np.unique(stack))
    at = np.searchsorted(ids, stack)
    return Stacks(
        comms=comms, comm=comm, stack=stack, offsets=_starts(lengths)[at], lengths=lengths[at], frames=frames
    )


def _frames(session: Session, stack_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sorted stack ids, their lengths, all their frame ids concatenated in that order)."""
    if not len(stack_ids):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.int32)
    ids, lengths, blob = session.execute(text(_FRAMES), {"ids": stack_ids.tolist()}).one()
    ids_array = np.array(ids, dtype=np.int64)
    length_array = np.array(lengths, dtype=np.int64)
    record_sizes = np.where(length_array > 0, ARRAY_HEADER + 8 * length_array, EMPTY_ARRAY)
    record_starts = _starts(record_sizes)[:-1]
    # Each element is (4-byte length, 4-byte value), big-endian: the values are every second int.
    words = np.frombuffer(bytes(blob), dtype=">i4")
    element_starts = (record_starts + ARRAY_HEADER) // 4 + 1
    first_word = np.repeat(element_starts, length_array)
    run_starts = np.repeat(_starts(length_array)[:-1], length_array)
    within = np.arange(int(length_array.sum()), dtype=np.int64) - run_starts
    frames = words[first_word + 2 * within].astype(np.int32)
    return ids_array, length_array, frames


def _starts(lengths: np.ndarray) -> np.ndarray:
    """Where each of consecutive runs of `lengths` starts, and the end of the last (len + 1 entries)."""
    starts = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    return starts


def build_and_store(session: Session, capture_id: int, parsed_at: datetime) -> CallsiteTree:
    """Build the capture's tree from what its parse wrote and keep it for this parse, with the parts
    of its diffs (`callsite_diff.named_parts`); caller commits."""
    return _build_and_store(session, capture_id, parsed_at).tree


def _build_and_store(session: Session, capture_id: int, parsed_at: datetime) -> KeptTree:
    """The tree, the diff's parts, and the samples as arrays for range views (`flame/sample_times.py`)."""
    tree = build_capture_tree(session, capture_id)
    parts = callsite_diff.named_parts(tree, *_name_representatives(session, tree))
    callsite_store.store(session, capture_id, parsed_at, tree, dict(parts))
    times = sample_times.build(session, capture_id, tree)
    if times is not None:
        sample_times.store(session, capture_id, parsed_at, times)
    return KeptTree(tree, parts)


def _name_representatives(session: Session, tree: CallsiteTree) -> tuple[np.ndarray, np.ndarray]:
    """Every frame id of the tree, and the lowest frame id sharing its name among them."""
    ids, representatives = repository.name_representatives(session, callsite_diff.frame_ids(tree))
    return np.array(ids, dtype=np.int64), np.array(representatives, dtype=np.int64)


def build_capture_tree(session: Session, capture_id: int) -> CallsiteTree:
    """The capture's tree, with its whole-capture weights per event (`CallsiteTree.whole`)."""
    tree = build(stacks_of(session, capture_id))
    events, comms, stacks, weights, samples = session.execute(text(_WHOLE), {"id": capture_id}).one()
    leaves_at = tree.pair_positions(list(comms), np.array(stacks, dtype=np.int64))  # all there: same rows
    weight_array, sample_array = np.array(weights, dtype=np.int64), np.array(samples, dtype=np.int64)
    event_array = np.array(events, dtype=object)
    for event in sorted(set(events)):
        chosen = event_array == event
        per_pair = (
            np.zeros(len(tree.pair_keys), dtype=np.int64),
            np.zeros(len(tree.pair_keys), dtype=np.int64),
        )
        np.add.at(per_pair[0], leaves_at[chosen], weight_array[chosen])
        np.add.at(per_pair[1], leaves_at[chosen], sample_array[chosen])
        tree.whole[event] = per_pair
    return tree


@dataclass(frozen=True, slots=True)
class KeptTree:
    """A tree as the cache keeps it: a capture's with the diff's parts stored beside it (read with
    it, in one round trip: a diff of the capture's ranges then needs nothing more from the database),
    or a merge of several captures' trees, which has none."""

    tree: CallsiteTree
    parts: callsite_store.Arrays | None = None

    @property
    def nbytes(self) -> int:
        return self.tree.nbytes + sum(a.nbytes for a in (self.parts or {}).values())


def _stored_or_built(session: Session, capture: Capture) -> KeptTree:
    """The stored tree, or one built now (a capture parsed before trees were stored, or whose tree
    could not be stored after its parse), stored in a transaction of its own for the next process."""
    stored = callsite_store.load_with_extras(session, capture.id, capture.parsed_at)
    if stored is not None:
        return KeptTree(*stored)
    if capture.parsed_at is None:
        return KeptTree(build_capture_tree(session, capture.id))
    try:
        with Session(session.get_bind()) as own:
            kept = _build_and_store(own, capture.id, capture.parsed_at)
            own.commit()
    except Exception:
        log.exception("the call-site tree of capture %s was not stored; built for this process", capture.id)
        return KeptTree(build_capture_tree(session, capture.id))
    return kept


def _version(capture: Capture) -> str:
    return f"{capture.id}@{capture.parsed_at.isoformat() if capture.parsed_at else '-'}"


class CallsiteTrees:
    """Trees by capture version, and merged trees by the versions they merge; least recently used
    trees leave first once their arrays pass `CACHE_BYTES`."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self._trees: LruCache[str, KeptTree] = LruCache(max_size=max_bytes, size=lambda t: t.nbytes)

    def tree_for(self, session: Session, captures: Sequence[Capture]) -> CallsiteTree:
        versions = sorted(_version(c) for c in captures)
        key = ",".join(versions)
        found = self._trees.get(key)
        if found is not None:
            return found.tree
        parts = [self.kept(session, capture).tree for capture in sorted(captures, key=lambda c: c.id)]
        tree = merge(parts)
        if len(parts) > 1:
            self._trees.put(key, KeptTree(tree))
        return tree

    def kept(self, session: Session, capture: Capture) -> KeptTree:
        """One capture's tree and stored parts, from the cache or read (or built) now."""
        own = self._trees.get(_version(capture))
        if own is None:
            own = _stored_or_built(session, capture)
            self._trees.put(_version(capture), own)
        return own

    def named_for(self, session: Session, captures: Sequence[Capture]) -> NamedTree:
        """The captures' tree with frames merged by name (what a diff weighs): one capture's as its
        parse stored it, with its function index; several captures' merged now."""
        if len(captures) == 1:
            own = self.kept(session, captures[0])
            stored = None if own.parts is None else callsite_diff.named_from_parts(own.tree, own.parts)
            if stored is not None:
                return stored
        tree = self.tree_for(session, captures)
        return callsite_diff.by_name(tree, *_name_representatives(session, tree))

    def whole_weights(
        self, session: Session, captures: Sequence[Capture], event: str
    ) -> tuple[CallsiteTree, np.ndarray, np.ndarray, np.ndarray]:
        """The captures' tree and, for every pair of theirs, its leaf, weight and samples for `event`
        over the whole captures: what `capture_stack_totals` would answer, without asking it."""
        tree = self.tree_for(session, captures)
        leaves, weights, samples = [], [], []
        for capture in captures:
            own = self.kept(session, capture).tree
            per_pair = own.whole.get(event)
            if per_pair is None:
                continue
            # A merged tree finds the capture's pairs by name and stack; its own tree has them in order.
            leaves.append(own.pair_leaf if tree is own else tree.leaves(own.pair_comms(), own.pair_stacks()))
            weights.append(per_pair[0])
            samples.append(per_pair[1])
        if not leaves:
            empty = np.zeros(0, dtype=np.int64)
            return tree, empty.astype(np.int32), empty, empty
        return tree, np.concatenate(leaves), np.concatenate(weights), np.concatenate(samples)

    def forget(self, captures: Sequence[Capture]) -> None:
        """Drop the trees of these captures (and merges holding them): a view found them stale."""
        versions = {_version(c) for c in captures}
        self._trees.forget_where(lambda key: bool(versions.intersection(key.split(","))))

    def clear(self) -> None:
        self._trees.clear()


trees = CallsiteTrees()
