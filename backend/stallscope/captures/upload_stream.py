"""Store an upload's body off the event loop, and drop clients that stall.

Decompressing (to meter the size), hashing and writing a chunk take CPU and disk time; done on the
event loop, one upload stalls every other request, `/api/health` included. So the loop only moves
bytes: it gathers chunks into batches of about 1 MiB and hands each to a worker thread.

A client that sends fewer than `upload_idle_min_bytes` in `upload_idle_timeout_s` of waiting is
dropped (408): otherwise a few hundred connections trickling a byte every few seconds each hold a
temp file and descriptors for as long as they like. Only time spent waiting for the client counts,
not time spent on our side storing what it sent.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import anyio
from starlette.requests import ClientDisconnect
from starlette.types import Receive

from stallscope.blobs.store import BlobUpload, StoredBlob

BATCH_BYTES = 1 << 20
BATCH_MAX_AGE_S = 1.0
"""A batch is stored after this long even when small: the temp file's mtime then shows the upload alive."""


class UploadStalled(Exception):
    """The client sent too little for too long."""

    def __init__(self, limit: IdleLimit) -> None:
        super().__init__(
            f"the upload was dropped: it sent fewer than {limit.min_bytes:,} bytes in "
            f"{limit.timeout_s:g} s; send the body without pauses (STALLSCOPE_UPLOAD_IDLE_TIMEOUT_S)"
        )


@dataclass(frozen=True, slots=True)
class IdleLimit:
    timeout_s: float
    min_bytes: int


async def store_body(receive: Receive, writer: BlobUpload, limit: IdleLimit) -> StoredBlob:
    """Write the whole body through `writer` in a worker thread and commit it there."""
    async for batch in body_batches(receive, limit):
        await anyio.to_thread.run_sync(writer.write, batch)
    return await anyio.to_thread.run_sync(writer.commit)


async def body_batches(receive: Receive, limit: IdleLimit) -> AsyncIterator[bytes]:
    """The request body in pieces of about BATCH_BYTES; raises UploadStalled or ClientDisconnect."""
    parts: list[bytes] = []
    size = 0
    last_batch = time.monotonic()
    waited_s, received = 0.0, 0
    while True:
        started = time.monotonic()
        with anyio.move_on_after(limit.timeout_s - waited_s) as wait:
            message = await receive()
        if wait.cancelled_caught:
            raise UploadStalled(limit)
        waited_s += time.monotonic() - started
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        body: bytes = message.get("body", b"")
        received += len(body)
        if received >= limit.min_bytes:
            waited_s, received = 0.0, 0
        if body:
            parts.append(body)
            size += len(body)
        more = bool(message.get("more_body", False))
        if parts and (not more or size >= BATCH_BYTES or time.monotonic() - last_batch >= BATCH_MAX_AGE_S):
            yield b"".join(parts)
            parts, size = [], 0
            last_batch = time.monotonic()
        if not more:
            return
