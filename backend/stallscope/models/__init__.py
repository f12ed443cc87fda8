"""Tables, one per module; importing this package registers them all on `Base.metadata`."""

from stallscope.models.annotation import Annotation
from stallscope.models.base import Base
from stallscope.models.capture import Capture
from stallscope.models.capture_callsite_tree import capture_callsite_trees
from stallscope.models.capture_stack_total import capture_stack_totals
from stallscope.models.capture_thread_state import capture_thread_states
from stallscope.models.document import capture_documents
from stallscope.models.event import events
from stallscope.models.finding import capture_digests, finding_verdicts, incident_findings
from stallscope.models.frame import Frame
from stallscope.models.host import Host
from stallscope.models.incident import Incident
from stallscope.models.metric import MetricSeries, metrics
from stallscope.models.people import (
    api_tokens,
    audit_log,
    guest_links,
    incident_members,
    login_attempts,
    oidc_logins,
    user_sessions,
    users,
)
from stallscope.models.retention_policy import retention_policy
from stallscope.models.sample import samples
from stallscope.models.sample_rollup_capture import sample_rollup_captures
from stallscope.models.sample_slice import sample_slices
from stallscope.models.short_link import ShortLink
from stallscope.models.stack import Stack
from stallscope.models.timeline_rollup import timeline_rollups
from stallscope.models.upload_token import UploadToken
from stallscope.models.watch import alert_deliveries, alerts, signatures, webhooks
from stallscope.models.worker_heartbeat import worker_heartbeats

__all__ = [
    "Annotation",
    "Base",
    "Capture",
    "Frame",
    "Host",
    "Incident",
    "MetricSeries",
    "ShortLink",
    "Stack",
    "UploadToken",
    "alert_deliveries",
    "alerts",
    "api_tokens",
    "audit_log",
    "capture_callsite_trees",
    "capture_digests",
    "capture_documents",
    "capture_stack_totals",
    "capture_thread_states",
    "events",
    "finding_verdicts",
    "guest_links",
    "incident_findings",
    "incident_members",
    "login_attempts",
    "metrics",
    "oidc_logins",
    "retention_policy",
    "sample_rollup_captures",
    "sample_slices",
    "samples",
    "signatures",
    "timeline_rollups",
    "user_sessions",
    "users",
    "webhooks",
    "worker_heartbeats",
]
