"""Settings from the environment, with defaults that start a working console on one machine."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

GIB = 1 << 30


def default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "stallscope"


class Settings(BaseSettings):
    """Everything configurable; `DATABASE_URL` and `CELERY_BROKER_URL` switch off the embedded mode."""

    model_config = SettingsConfigDict(env_prefix="STALLSCOPE_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str | None = Field(default=None, validation_alias="DATABASE_URL")
    broker_url: str | None = Field(default=None, validation_alias="CELERY_BROKER_URL")
    host: str = "127.0.0.1"
    port: int = 8000
    max_upload_bytes: int = 2 * GIB
    """Limit on a capture's size after decompression: zip bombs and runaway files stop here."""
    flame_max_nodes: int = 50_000
    worker_concurrency: int = 1
    frontend_dist: Path | None = None

    admin_password: str | None = None
    """The first admin's password on a fresh console; unset, a random one is printed once."""

    oidc_issuer: str | None = None
    """Single sign-on through this OpenID Connect provider (its issuer URL); unset, passwords only."""
    oidc_client_id: str = ""
    oidc_client_secret: str = ""
    oidc_scopes: str = "openid email profile"
    oidc_label: str = "single sign-on"
    """What the sign-in page's button says: "Sign in with <label>"."""
    oidc_redirect_url: str | None = None
    """The callback URL registered at the provider; unset: this console's URL + /api/auth/oidc/callback."""
    oidc_default_role: str = "viewer"
    """The role of an account made at its first single sign-on (when no group below matches)."""
    oidc_groups_claim: str = "groups"
    oidc_admin_groups: str = ""
    """Comma-separated provider groups whose members are admins (checked at every sign-on)."""
    oidc_responder_groups: str = ""

    public_url: str | None = None
    """The console's address as people open it (`https://stallscope.example`): links in alerts sent
    to webhooks start with it. Unset: `http://HOST:PORT` of the settings above."""

    allowed_hosts: str = ""
    """Comma-separated Host names the console answers to, beside the listen address and localhost.

    Checked on every request: a web page that rebinds its own DNS name to this address cannot
    read the console, because its requests carry that foreign name.
    """
    max_concurrent_uploads: int = Field(default=32, ge=1)
    """Uploads one API process takes at once; past it uploads are refused (503, Retry-After) before
    their body is read, and collectors send them again later."""
    uploads_per_minute: float = Field(default=120.0, gt=0)
    """Uploads per minute one token (or session) may send, with bursts of a minute's worth; past it
    429 with Retry-After."""
    upload_busy_retry_after_s: int = Field(default=5, ge=1)
    upload_idle_timeout_s: float = 30.0
    """An upload that delivers less than `upload_idle_min_bytes` in this long is dropped (408)."""
    upload_idle_min_bytes: int = 1024

    parse_stall_timeout_s: float = Field(default=30.0, ge=1.0)
    """A parse whose worker has not touched its heartbeat (six times per timeout) for this long is
    queued again."""
    recovery_interval_s: float = 15.0
    """How often `serve` looks for stalled parses and lost parse messages."""
    stop_grace_s: float = Field(default=10.0, ge=0.0)
    """At Ctrl-C, how long a running parse may take to finish before it is cut short (its capture is
    parsed again at the next start)."""

    max_distinct_stacks: int = 1_000_000
    """Per capture: a new stack past this many distinct ones is stored as `[stack limit reached]`.

    Its samples keep their time; the capture ends partial. Storing keeps about 7 MB per 100k
    distinct stacks up to here and nothing past it (3M distinct collapsed stacks peaked at 286 MB).
    The perf-script importer's own table is bounded apart (about 160 MB at most): 2M distinct
    16-frame perf-script stacks peaked at 654 MB, 1M at 628 MB.
    """
    max_stack_depth: int = 131_072
    """Per stack: frames past this many are cut, keeping the leaf side, as perf's own limit does.

    200 distinct stacks this deep (26M frames) peaked at 627 MB, 484 MB of it the importer's.
    """
    max_metric_series: int = 100_000
    """Per capture: points of series past this many are dropped (the capture ends partial).

    1M distinct series in JSON lines peaked at 141 MB and took 28 s, against 307 MB and 151 s unbounded.
    """
    max_events: int = 50_000_000
    """Per capture: timed events (syscalls, faults, off-CPU intervals) past this many are dropped.

    A bound on the database, not on memory (3M events peaked at 116 MB): an event row costs about
    130 bytes with its indexes, so 50M is about 6.5 GB.
    """
    max_warnings: int = 100
    """Per capture: warnings kept with their line (each cut at 500 characters); the rest are counted."""

    @property
    def allowed_host_names(self) -> list[str]:
        """The listen address, localhost and loopback, and whatever `allowed_hosts` adds."""
        configured = [h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip()]
        return [self.host.lower(), "localhost", "127.0.0.1", "::1", *configured]

    @property
    def console_url(self) -> str:
        """Where people open the console, without a trailing slash (`public_url`, else the listen address)."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    blob_url: str | None = None
    """Where raw uploads are kept: unset, `<data dir>/blobs`; `s3://bucket/prefix`, object storage
    (see `blobs/configured.py`), which an API and workers on other hosts can share."""

    @property
    def blob_dir(self) -> Path:
        """The local blob directory, when `blob_url` is unset."""
        return self.data_dir / "blobs"

    @property
    def pgdata_dir(self) -> Path:
        return self.data_dir / "pgdata"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
