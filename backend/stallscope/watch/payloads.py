"""What a webhook receives for an alert, in the three shapes receivers expect.

- `json`: Stallscope's own body, everything the alert holds (its evidence too), with links;
- `alertmanager`: the list of alerts Alertmanager's API takes (`POST /api/v2/alerts`): labels to
  route and group on (alertname, signature, host, source), annotations with the summary and the
  link, `startsAt` and `generatorURL`; point the webhook at Alertmanager's `/api/v2/alerts`;
- `slack`: an incoming webhook's message: `text` with the summary and the link in Slack's markup.

Every shape links to the evidence: the stream's flame graph of the matching capture (off-CPU with
the rule's state for an off-CPU rule), searched for the frame that matched in the heaviest stack.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import RowMapping

FLAME_VIEW_VERSION = 3
"""The flame page's link version (frontend `URL_STATE_VERSION`)."""
ALERTNAME = "StallscopeSignature"


def matched_frame(pattern: str, evidence: dict[str, Any]) -> str | None:
    """The first frame (from the root) of the heaviest matching stack that the pattern matches: the
    flame graph's search box takes one literal name, and this one is sure to be there."""
    try:
        search = re.compile(pattern).search
    except re.error:
        return None
    for stack in evidence.get("stacks", [])[:1]:
        for frame in stack.get("frames", []):
            if search(frame):
                return str(frame)
    return None


def evidence_url(console: str, alert: RowMapping) -> str:
    """The flame graph of the alert's latest matching capture in its watch stream."""
    params: dict[str, str] = {"v": str(FLAME_VIEW_VERSION)}
    if alert["stream_id"] is not None:
        params["incident"] = str(alert["stream_id"])
    if alert["last_capture_id"] is not None:
        params["captures"] = str(alert["last_capture_id"])
    if alert["source"] == "off-cpu":
        params["source"] = "off-cpu"
        if alert["state"]:
            params["state"] = alert["state"]
    frame = matched_frame(alert["pattern"], alert["evidence"])
    if frame is not None:
        params["q"] = frame
    return f"{console}/flame?{urlencode(params)}"


def alerts_url(console: str) -> str:
    return f"{console}/watch"


def summary(alert: RowMapping) -> str:
    """One line: which signature, where, how much (a finding rule: what the detector found)."""
    if alert["source"] == "finding":
        found = alert["evidence"].get("findings", [])
        said = "; ".join(f"{f['title']} ({f['severity']})" for f in found) or "a detector's finding"
        return f"Signature {alert['signature']!r} matched on {alert['host']}: {said}"
    what = "of CPU samples" if alert["source"] == "cpu" else "of off-CPU time"
    state = f" in state {alert['state']}" if alert["source"] == "off-cpu" and alert["state"] else ""
    amount = f"{alert['share'] * 100:.1f}% {what}{state}"
    if alert["source"] == "off-cpu":
        amount += f" ({alert['matched_ns'] / 1e6:.1f} ms)"
    return f"Signature {alert['signature']!r} matched on {alert['host']}: {amount}"


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def own(alert: RowMapping, console: str) -> dict[str, Any]:
    return {
        "kind": "stallscope.alert",
        "version": 1,
        "summary": summary(alert),
        "alert": {
            "id": alert["id"],
            "signature": alert["signature"],
            "pattern": alert["pattern"],
            "source": alert["source"],
            "state": alert["state"],
            "host": alert["host"],
            "first_at": _iso(alert["first_at"]),
            "last_at": _iso(alert["last_at"]),
            "matches": alert["matches"],
            "share": alert["share"],
            "matched_ns": alert["matched_ns"],
            "capture_id": alert["last_capture_id"],
            "stream_id": alert["stream_id"],
            "evidence": alert["evidence"],
        },
        "links": {"evidence": evidence_url(console, alert), "alerts": alerts_url(console)},
    }


def alertmanager(alert: RowMapping, console: str) -> list[dict[str, Any]]:
    link = evidence_url(console, alert)
    return [
        {
            "labels": {
                "alertname": ALERTNAME,
                "signature": alert["signature"],
                "host": alert["host"],
                "source": alert["source"],
                "severity": "warning",
            },
            "annotations": {
                "summary": summary(alert),
                "description": f"Frames matching {alert['pattern']!r}; evidence: {link}",
                "evidence": link,
            },
            "startsAt": _iso(alert["first_at"]),
            "generatorURL": link,
        }
    ]


def slack(alert: RowMapping, console: str) -> dict[str, Any]:
    link = evidence_url(console, alert)
    return {"text": f":rotating_light: {summary(alert)}. <{link}|Open the evidence>"}


SHAPES = {"json": own, "alertmanager": alertmanager, "slack": slack}


def body(format: str, alert: RowMapping, console: str) -> Any:
    return SHAPES[format](alert, console)
