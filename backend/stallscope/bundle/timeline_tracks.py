"""Which timeline tracks a first look shows: the rule of the console's `trackDefaults.ts`, in Python.

The bundle records the timeline the viewer will ask for, and the viewer asks for the default tracks
when the route names none, so the exporter must pick the same ones: per host the busiest CPU track,
/proc stack tracks of state D (or of no state), off-CPU tracks, syscall and fault latency, up to two
free-memory series, and up to 24 application metrics, in the order the listing gives them. The
offline test (`frontend/e2e/bundle.spec.ts`) fails on any request the bundle does not hold, so the two
cannot drift apart unnoticed.
"""

from __future__ import annotations

from typing import Any

LATENCY_KINDS = frozenset({"syscall", "fault"})
FREE_MEMORY_NAMES = ("mem.MemFree", "mem.MemAvailable", "mem.free", "mem.available", "vm.free")
MAX_FREE_MEMORY = 2
MAX_APPLICATION_METRICS = 24


def default_track_ids(listing: dict[str, Any]) -> list[str]:
    """The ids `defaultTrackIds` picks from a `/api/timeline/tracks` answer, in listing order."""
    chosen: set[str] = set()
    for host in listing.get("hosts", []):
        chosen.update(_host_defaults(host.get("tracks", [])))
    return [t["id"] for host in listing.get("hosts", []) for t in host.get("tracks", []) if t["id"] in chosen]


def _host_defaults(tracks: list[dict[str, Any]]) -> list[str]:
    ids: list[str] = []
    sampled = [t for t in tracks if t.get("type") == "cpu"]
    busiest = None
    for track in (t for t in sampled if t.get("origin") == "cpu"):
        if busiest is None or track.get("samples", 0) > busiest.get("samples", 0):
            busiest = track
    if busiest is not None:
        ids.append(busiest["id"])
    ids += [t["id"] for t in sampled if t.get("origin") == "proc-stack" and t.get("state") in ("D", None)]
    for track in tracks:
        if track.get("type") == "offcpu" or (
            track.get("type") == "events" and track.get("name") is None and track.get("kind") in LATENCY_KINDS
        ):
            ids.append(track["id"])
    metrics = [t for t in tracks if t.get("type") == "metric"]
    unlabelled = {m["name"]: m for m in metrics if m.get("system") and not m.get("labels")}
    free = [unlabelled[name] for name in FREE_MEMORY_NAMES if name in unlabelled][:MAX_FREE_MEMORY]
    ids += [m["id"] for m in free]
    ids += [m["id"] for m in metrics if not m.get("system")][:MAX_APPLICATION_METRICS]
    return ids
