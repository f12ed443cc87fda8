"""Make a bundle: choose the captures and views, read each view's files, redact, and zip.

Three steps, so the event loop never blocks and every file is read exactly as the console serves it:
1. `prepare` (a worker thread): the captures chosen, the redactor with the names it must know, and
   the views (standard ones and saved ones);
2. `read` (the event loop): what the console's API answers for them, asked in process
   (`console_reader.py`) with the exporter's own credentials: per flame graph its folded stacks,
   pprof and speedscope files; the incident, findings, annotations, snapshots and the config diff;
3. `write` (a worker thread): redact and write the zip member by member (`archive.py`): those files,
   events and metrics as CSV, the postmortem, each capture's stored records (what an import
   reads), the raw captures if asked, and `manifest.json` last, with the SHA-256 of every other file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session
from starlette.types import ASGIApp

from stallscope import __version__
from stallscope.auth.principal import Principal
from stallscope.blobs.configured import blob_store
from stallscope.bundle import manifest, plan, repository, tables
from stallscope.bundle.archive import BundleArchive
from stallscope.bundle.console_reader import BundleViewError, ConsoleReader
from stallscope.bundle.keys import response_key
from stallscope.bundle.page import render_index, viewer_template
from stallscope.bundle.redaction_choice import redactor_for
from stallscope.bundle.repository import BundledCapture, TimeRange
from stallscope.bundle.schemas import BundleRequest
from stallscope.bundle.views import BundleView, kind_of, standard_views
from stallscope.export.records import write_capture_records
from stallscope.findings import repository as findings_repository
from stallscope.frontend_dist import frontend_dist
from stallscope.interop.pprof_strings import rewrite_strings
from stallscope.kit.compression import decompressed
from stallscope.kit.errors import Invalid, NotFound
from stallscope.kit.units import utc_iso
from stallscope.postmortem.service import build_postmortem
from stallscope.redaction import Redactor
from stallscope.shares import service as shares
from stallscope.snapshots import repository as snapshots_repository

PARSED = frozenset({"ready", "partial", "empty"})
_RAW_CHUNK = 1 << 20


@dataclass(slots=True)
class Prepared:
    """What step 1 decided."""

    incident_id: int
    captures: list[BundledCapture]
    span: TimeRange
    views: list[BundleView]
    snapshots: list[tuple[int, int]]
    """(capture id, take) of each system snapshot among the chosen captures."""
    redactor: Redactor
    principal: Principal
    base_url: str
    template: str
    """The offline viewer page the answers go into."""
    left_out: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ViewRead:
    """One view's API answers by URL, and for a flame graph its stacks as other tools read them
    (folded, pprof, speedscope), all as the console answered, unredacted."""

    view: BundleView
    responses: dict[str, Any]
    folded: bytes | None = None
    pprof: bytes | None = None
    speedscope: Any | None = None
    sides: dict[str, bytes] = field(default_factory=dict)
    """A diff's two sides as folded stacks, by side (`a`, `b`)."""


@dataclass(slots=True)
class Read:
    """What step 2 read, unredacted."""

    incident: Any
    captures: Any
    findings: Any | None
    annotations: Any | None
    snapshots: dict[int, Any]
    config_diff: Any | None
    views: list[ViewRead]


def allowed_request(request: BundleRequest, principal: Principal) -> BundleRequest:
    """What a guest's bundle may hold: no raw captures (a guest may not download them) and no
    postmortem (the team's own write-up of the whole incident)."""
    if not principal.is_guest:
        return request
    return request.model_copy(update={"raw": False, "postmortem": False})


def choose_captures(
    captures: list[BundledCapture], request: BundleRequest, principal: Principal
) -> list[BundledCapture]:
    """The parsed captures the request names (all of them when it names none), of those the
    principal may see (a guest link may show only some)."""
    parsed = [c for c in captures if c.status in PARSED]
    if principal.capture_ids is not None:
        parsed = [c for c in parsed if c.id in set(principal.capture_ids)]
    if request.captures is not None:
        unknown = sorted(set(request.captures) - {c.id for c in captures})
        if unknown:
            raise Invalid(f"captures {unknown} are not in this incident (or are in the trash)")
        parsed = [c for c in parsed if c.id in set(request.captures)]
    if request.hosts is not None:
        parsed = [c for c in parsed if c.host in set(request.hosts)]
    return parsed


def prepare(
    session: Session, incident_id: int, request: BundleRequest, principal: Principal, base_url: str
) -> Prepared:
    every = repository.incident_captures(session, incident_id)
    chosen = choose_captures(every, request, principal)
    if not chosen:
        raise Invalid("nothing to export: no parsed capture matches the captures and hosts asked for")
    span = TimeRange(request.start, request.end)
    if span.start is not None and span.end is not None and span.end <= span.start:
        raise Invalid("the time range ends before it starts")
    ids = {c.id for c in chosen}
    snapshots = [
        (row.capture_id, row.take)
        for row in snapshots_repository.list_for_incident(session, incident_id)
        if row.capture_id in ids
    ]
    views: list[BundleView] = []
    if request.standard_views:
        baseline = findings_repository.baseline_hosts(session, incident_id)
        subset = len(chosen) < len([c for c in every if c.status in PARSED])
        views = standard_views(incident_id, chosen, span, baseline, snapshots, subset)
    left_out: list[str] = []
    for link_id in request.views or []:
        try:
            link = shares.resolve(session, link_id)
        except NotFound:
            raise Invalid(f"no saved view (short link) {link_id!r}") from None
        kind = kind_of(link.target)
        if kind is None:
            left_out.append(f"saved view {link_id}: {link.target} is not a view a bundle can show")
            continue
        views.append(BundleView(kind, f"Saved view {link_id}", link.target))
    redactor = redactor_for(session, request.redaction, chosen)
    template = viewer_template(frontend_dist())
    return Prepared(
        incident_id, chosen, span, views, snapshots, redactor, principal, base_url, template, left_out
    )


async def read(reader: ConsoleReader, prepared: Prepared, request: BundleRequest) -> Read:
    incident = prepared.incident_id
    snapshots: dict[int, Any] = {}
    for capture_id, _take in prepared.snapshots:
        snapshots.setdefault(capture_id, await reader.json(f"/api/captures/{capture_id}/documents"))
    config_diff = None
    if len(prepared.snapshots) >= 2:
        (a, a_take), (b, b_take) = prepared.snapshots[0], prepared.snapshots[1]
        config_diff = await reader.json(f"/api/snapshots/diff?a={a}:{a_take}&b={b}:{b_take}")
    views = []
    for view in prepared.views:
        try:
            views.append(await _read_view(reader, view))
        except BundleViewError as exc:
            prepared.left_out.append(f"{view.title}: {exc}")
    return Read(
        incident=await reader.json(f"/api/incidents/{incident}"),
        captures=await reader.json(f"/api/incidents/{incident}/captures"),
        findings=await _optional(reader, prepared, f"/api/incidents/{incident}/findings", request.findings),
        annotations=await _optional(
            reader, prepared, f"/api/incidents/{incident}/annotations", request.annotations
        ),
        snapshots=snapshots,
        config_diff=config_diff,
        views=views,
    )


async def _optional(reader: ConsoleReader, prepared: Prepared, url: str, wanted: bool) -> Any | None:
    """An answer the bundle holds when asked for and when the exporter may read it (a guest link
    limited to some captures may not read the whole incident's findings): else left out, and said."""
    if not wanted:
        return None
    try:
        return await reader.json(url)
    except BundleViewError as exc:
        prepared.left_out.append(str(exc))
        return None


async def _read_view(reader: ConsoleReader, view: BundleView) -> ViewRead:
    responses: dict[str, Any] = {}

    async def fetch(url: str) -> Any:
        body = responses[url] = await reader.json(url)
        return body

    if view.kind == "metrics" and "series=" not in view.route:
        scope = {k: v for k, v in parse_qsl(urlsplit(view.route).query) if k in ("captures", "incident")}
        listing = await reader.json(f"/api/metrics/series?{urlencode(scope)}")
        view = view.with_series(plan.metric_series_for(listing))
    await plan.fetch_view(view.route, fetch)
    read = ViewRead(view, responses)
    flame = next((url for url in responses if urlsplit(url).path == "/api/flame"), None)
    if view.kind == "flame" and flame is not None:
        query = urlencode([(k, v) for k, v in parse_qsl(urlsplit(flame).query) if k != "max_nodes"])
        read.folded = (await reader.text(f"/api/flame/folded?{query}")).encode("utf-8")
        read.pprof = await reader.bytes(f"/api/flame/export?format=pprof&{query}")
        read.speedscope = await reader.json(f"/api/flame/export?format=speedscope&{query}")
    diff = next((url for url in responses if urlsplit(url).path == "/api/diff"), None)
    if view.kind == "diff" and diff is not None:
        params = dict(parse_qsl(urlsplit(diff).query))
        for side in ("a", "b"):
            one = {key[2:]: value for key, value in params.items() if key.startswith(f"{side}.")}
            one |= {key: params[key] for key in ("source", "state") if key in params}
            read.sides[side] = (await reader.text(f"/api/flame/folded?{urlencode(one)}")).encode("utf-8")
    return read


def write(session: Session, prepared: Prepared, answers: Read, request: BundleRequest, out: Path) -> None:
    """Redact and write everything; `manifest.json` last, with the hash of every other member."""
    exported_at = datetime.now(UTC)
    archive = BundleArchive(out, exported_at)
    try:
        _write_members(session, archive, prepared, answers, request, exported_at)
    finally:
        archive.close()


def _write_members(
    session: Session,
    archive: BundleArchive,
    prepared: Prepared,
    answers: Read,
    request: BundleRequest,
    exported_at: datetime,
) -> None:
    redactor = prepared.redactor
    text = redactor.text
    # Small, name-rich files first: the redactor learns names from them before the big files.
    incident = redactor.json(answers.incident)
    for capture_id, documents in answers.snapshots.items():
        archive.add_text(f"snapshots/capture-{capture_id}.json", _json(redactor.json(documents)))
    if answers.config_diff is not None:
        archive.add_text("snapshots/config-diff.json", _json(redactor.json(answers.config_diff)))
    archive.add_text("captures.json", _json(redactor.json(answers.captures)))
    if answers.findings is not None:
        archive.add_text("findings.json", _json(redactor.json(answers.findings)))
    if answers.annotations is not None:
        archive.add_text("annotations.json", _json(redactor.json(answers.annotations)))
    if request.postmortem:
        report = build_postmortem(
            session,
            prepared.incident_id,
            base_url=prepared.base_url,
            principal=prepared.principal,
            redact=text,
        )
        archive.add_text("postmortem.md", report.markdown)
        archive.add_text("postmortem.html", report.html)
        for name, svg in sorted(report.images.items()):
            archive.add_bytes(f"images/{name}", svg)
    view_entries: list[dict[str, Any]] = []
    responses: dict[str, Any] = {}
    files: list[dict[str, str]] = []
    for number, read in enumerate(answers.views, start=1):
        title = text(read.view.title)
        route = _redacted_url(redactor, read.view.route)
        view_entries.append({"kind": read.view.kind, "title": title, "route": route})
        for url, body in read.responses.items():
            responses[response_key(_redacted_url(redactor, url))] = redactor.json(body)
        if read.folded is not None and read.pprof is not None:
            folder = f"views/{number}-{read.view.kind}"
            archive.add_chunks(f"{folder}/stacks.folded", redactor.lines([read.folded]))
            archive.add_bytes(f"{folder}/profile.pb.gz", rewrite_strings(read.pprof, text))
            archive.add_text(f"{folder}/profile.speedscope.json", json.dumps(redactor.json(read.speedscope)))
            files += [
                {"path": f"{folder}/{name}", "title": f"{title}: {what}"}
                for name, what in (
                    ("stacks.folded", "folded stacks"),
                    ("profile.pb.gz", "pprof"),
                    ("profile.speedscope.json", "speedscope"),
                )
            ]
        for side, folded in read.sides.items():
            path = f"views/{number}-{read.view.kind}/{side}.folded"
            archive.add_chunks(path, redactor.lines([folded]))
            files.append({"path": path, "title": f"{title}: side {side.upper()}, folded stacks"})
    ids = [c.id for c in prepared.captures]
    archive.add_chunks("data/events.csv", tables.events_csv(session, ids, prepared.span, text))
    archive.add_chunks("data/metrics.csv", tables.metrics_csv(session, ids, prepared.span, text))
    files += [
        {"path": "data/events.csv", "title": "Events (CSV)"},
        {"path": "data/metrics.csv", "title": "Metric points (CSV)"},
    ]
    captures_out = []
    for number, capture in enumerate(prepared.captures, start=1):
        records_path = f"captures/{number}.records.jsonl.gz"
        with tempfile.TemporaryFile() as spool:
            write_capture_records(session, capture.id, spool, text, redactor.json)
            spool.seek(0)
            archive.add_file(records_path, spool)
        if request.raw:
            with decompressed(blob_store().open(capture.sha256)) as raw:
                chunks = iter(lambda: raw.read(_RAW_CHUNK), b"")
                archive.add_chunks(
                    f"raw/{number}-{_uncompressed_name(text(capture.filename))}", redactor.lines(chunks)
                )
        captures_out.append(manifest.capture_entry(number, capture, records_path, redactor))
    files += [
        {"path": m.path, "title": m.path}
        for m in archive.members
        if not m.path.startswith(("views/", "data/"))
    ]
    page = {
        "format": manifest.FORMAT,
        "version": manifest.VERSION,
        "stallscope_version": __version__,
        "exported_at": utc_iso(exported_at),
        "redacted": not redactor.policy.is_off,
        "incident": incident,
        "views": view_entries,
        "responses": responses,
        "files": files,
    }
    archive.add_text("index.html", render_index(prepared.template, page))
    archive.add_text(
        manifest.NAME,
        _json(
            manifest.build(
                exported_at=exported_at,
                incident=incident,
                captures=captures_out,
                views=view_entries,
                members=archive.members,
                redaction={
                    "policy": "off" if redactor.policy.is_off else "on",
                    **redactor.report().to_json(),
                },
                left_out=prepared.left_out,
            )
        ),
    )


def _redacted_url(redactor: Redactor, url: str) -> str:
    """The URL with each query value redacted on its own, decoded, so it still parses as the viewer's
    request does (a host name in `hosts=` becomes its pseudonym, the same one the answers use)."""
    parts = urlsplit(url)
    pairs = [(key, redactor.text(value)) for key, value in parse_qsl(parts.query, keep_blank_values=True)]
    return parts.path + ("?" + urlencode(pairs) if pairs else "")


def _uncompressed_name(filename: str) -> str:
    """Raw captures are written decompressed (redaction reads them as text): drop `.gz`/`.zst`."""
    for suffix in (".gz", ".zst"):
        if filename.endswith(suffix):
            return filename[: -len(suffix)]
    return filename


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False)


async def export(
    app: ASGIApp,
    headers: Mapping[str, str],
    principal: Principal,
    base_url: str,
    session_factory: Callable[[], Session],
    incident_id: int,
    request: BundleRequest,
) -> Path:
    """Make the bundle in a temporary file and return its path (the caller removes it)."""

    def _prepare() -> Prepared:
        with session_factory() as session:
            return prepare(session, incident_id, request, principal, base_url)

    prepared = await run_in_threadpool(_prepare)
    reader = ConsoleReader(app, headers)
    try:
        answers = await read(reader, prepared, request)
    finally:
        await reader.close()
    handle, name = tempfile.mkstemp(prefix="stallscope-bundle-", suffix=".zip")
    os.close(handle)
    out = Path(name)

    def _write() -> None:
        with session_factory() as session:
            write(session, prepared, answers, request, out)
            session.commit()  # the postmortem's short links

    try:
        await run_in_threadpool(_write)
    except BaseException:
        out.unlink(missing_ok=True)
        raise
    return out
