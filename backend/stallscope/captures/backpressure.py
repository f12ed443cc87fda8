"""Back-pressure on uploads: a cap on uploads in flight, and a rate per credential.

When fifty collectors upload at once, taking them all would spread the API's threads, memory and
the object store's bandwidth so thin that each upload crawls and health checks time out. Past the
cap the API answers 503 at once, before reading the body; past its credential's rate, 429. Both say
when to come back (`Retry-After`), and the collector spools the capture and tries again then, with
the same idempotency key, so a refused upload is delayed, never lost or doubled.

Both limits are per API process: with several API processes behind a load balancer, each admits
its own share.
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from stallscope.auth.guard import Uploader
from stallscope.auth.principal import Principal
from stallscope.config import get_settings
from stallscope.kit.errors import TooManyRequests, Unavailable

RATE_BUCKETS_KEPT = 10_000
"""Credentials whose buckets are remembered; the fullest (idle longest) are forgotten past this."""


@dataclass
class UploadCounters:
    """What the gate did since the process started, for the metrics exposition."""

    in_flight: int = 0
    accepted: int = 0
    refused_busy: int = 0
    refused_rate: int = 0


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class UploadGate:
    max_in_flight: int
    per_minute: float
    busy_retry_after_s: int
    counters: UploadCounters = field(default_factory=UploadCounters)
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def admit(self, credential: str, now: float | None = None) -> None:
        """Take a slot and a token for one upload, or raise 503 / 429 saying when to come back.

        Runs on the event loop only, so no lock: nothing else moves the counts in between."""
        if self.counters.in_flight >= self.max_in_flight:
            self.counters.refused_busy += 1
            raise Unavailable(
                f"the console is taking {self.counters.in_flight} uploads at once, its limit "
                f"(STALLSCOPE_MAX_CONCURRENT_UPLOADS); send it again in {self.busy_retry_after_s} s",
                self.busy_retry_after_s,
            )
        wait_s = self._take_token(credential, time.monotonic() if now is None else now)
        if wait_s > 0:
            self.counters.refused_rate += 1
            retry_after = max(1, math.ceil(wait_s))
            raise TooManyRequests(
                f"{credential} sent more than {self.per_minute:g} uploads a minute "
                f"(STALLSCOPE_UPLOADS_PER_MINUTE); send it again in {retry_after} s",
                retry_after,
            )
        self.counters.in_flight += 1
        self.counters.accepted += 1

    def release(self) -> None:
        self.counters.in_flight -= 1

    def _take_token(self, credential: str, now: float) -> float:
        """0 when a token was taken, else the seconds until one will be there.

        A bucket holds a minute's worth, so a collector that sent nothing for a while may send a
        burst of that many (a spool emptying after an outage)."""
        rate_per_s = self.per_minute / 60.0
        bucket = self._buckets.get(credential)
        if bucket is None:
            self._forget_idle()
            bucket = self._buckets[credential] = _Bucket(self.per_minute, now)
        bucket.tokens = min(self.per_minute, bucket.tokens + (now - bucket.updated) * rate_per_s)
        bucket.updated = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / rate_per_s

    def _forget_idle(self) -> None:
        if len(self._buckets) < RATE_BUCKETS_KEPT:
            return
        oldest = sorted(self._buckets, key=lambda name: self._buckets[name].updated)
        for name in oldest[: len(oldest) // 2]:
            del self._buckets[name]


def upload_gate(request: Request) -> UploadGate:
    """The app's gate, made at its first upload from the settings."""
    gate: UploadGate | None = getattr(request.app.state, "upload_gate", None)
    if gate is None:
        settings = get_settings()
        gate = UploadGate(
            settings.max_concurrent_uploads, settings.uploads_per_minute, settings.upload_busy_retry_after_s
        )
        request.app.state.upload_gate = gate
    return gate


async def upload_slot(request: Request, principal: Uploader) -> AsyncIterator[None]:
    """A dependency of the upload routes: admitted before the body is read, released after."""
    gate = upload_gate(request)
    gate.admit(_credential(principal))
    try:
        yield
    finally:
        gate.release()


def _credential(principal: Principal) -> str:
    """Whose rate an upload counts against, in words: the token or session, by its id."""
    return (
        principal.describe()
        if principal.credential_id is None
        else (f"{principal.describe()} ({principal.via} {principal.credential_id})")
    )


UploadSlot = Annotated[None, Depends(upload_slot)]
