"""Send a capture's parse message, naming the attempt it is for.

A message that cannot be sent (the broker is down) is not an upload failure: the capture row is
already committed as `queued`, and the recovery loop sends its message again once the broker
answers. So the upload still gets its 202 and nothing the user sent is lost.
"""

from __future__ import annotations

import logging

from stallscope.worker import enqueue

log = logging.getLogger(__name__)

PARSE_TASK = "captures.parse"


def send_parse(capture_id: int, attempt: int) -> bool:
    """Queue the parse of `attempt`; False when the broker could not take the message."""
    try:
        enqueue(PARSE_TASK, capture_id, attempt)
    except Exception as exc:  # kombu raises its own and the transport's errors alike
        log.warning(
            "capture %s: parse message not sent (%s); the recovery loop will resend it", capture_id, exc
        )
        return False
    return True
