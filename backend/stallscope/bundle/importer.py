"""Import a bundle into this console as a new incident (the vendor's side of an escalation).

Each capture travels in the bundle as its stored records (`captures/*.records.jsonl.gz`, the
`stallscope-records` format), which the console's own importer parses back into the same rows, so
every view of the new incident shows the numbers the exporting console showed. The bundle is checked
against its manifest first: a member whose SHA-256 differs, or a manifest that is missing or from a
newer format, is refused with the file named, before anything is created.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from stallscope.blobs.metering import UploadTooLarge
from stallscope.blobs.store import BlobStore, StoredBlob
from stallscope.bundle import manifest as manifest_file
from stallscope.captures import service as captures
from stallscope.captures.schemas import UploadInfo
from stallscope.incidents import service as incidents
from stallscope.incidents.schemas import IncidentCreate
from stallscope.kit.errors import Invalid, TooLarge

_CHUNK = 1 << 20
_TITLE_MAX = 300


@dataclass(frozen=True, slots=True)
class ImportedCapture:
    capture_id: int
    parse_attempt: int
    host: str | None
    filename: str


@dataclass(frozen=True, slots=True)
class ImportResult:
    incident_id: int
    captures: list[ImportedCapture]
    skipped: list[str]


def read_manifest(bundle: zipfile.ZipFile, name: str) -> dict[str, Any]:
    """The manifest, checked for format and version, and every member it lists checked by hash."""
    try:
        raw = bundle.read(manifest_file.NAME)
    except KeyError:
        raise Invalid(f"{name}: no {manifest_file.NAME} inside: not a Stallscope bundle") from None
    try:
        manifest = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Invalid(f"{name}: {manifest_file.NAME} is not valid JSON: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != manifest_file.FORMAT:
        raise Invalid(f"{name}: {manifest_file.NAME} does not describe a Stallscope bundle")
    version = manifest.get("version")
    if not isinstance(version, int) or version > manifest_file.VERSION:
        raise Invalid(
            f"{name}: bundle format version {version} is newer than this console reads "
            f"({manifest_file.VERSION}): upgrade Stallscope"
        )
    _check_hashes(bundle, name, manifest.get("files"))
    return manifest


def _check_hashes(bundle: zipfile.ZipFile, name: str, files: Any) -> None:
    if not isinstance(files, list):
        raise Invalid(f"{name}: {manifest_file.NAME} lists no files")
    present = set(bundle.namelist())
    for entry in files:
        path, expected = entry.get("path"), entry.get("sha256")
        if path not in present:
            raise Invalid(f"{name}: {path} is listed in the manifest but missing from the bundle")
        digest = hashlib.sha256()
        with bundle.open(path) as member:
            for chunk in iter(lambda: member.read(_CHUNK), b""):
                digest.update(chunk)
        if digest.hexdigest() != expected:
            raise Invalid(
                f"{name}: {path} does not match the SHA-256 in the manifest: the bundle was altered"
            )


def import_bundle(
    session: Session, bundle_path: Path, name: str, created_by: int | None, store: BlobStore, max_bytes: int
) -> ImportResult:
    """Create the incident and a queued capture per records file; the caller commits, then queues."""
    try:
        bundle = zipfile.ZipFile(bundle_path)
    except zipfile.BadZipFile as exc:
        raise Invalid(f"{name}: not a zip file ({exc})") from exc
    with bundle:
        manifest = read_manifest(bundle, name)
        incident = incidents.create_incident(session, _incident(manifest, name), created_by=created_by)
        imported: list[ImportedCapture] = []
        skipped: list[str] = []
        for entry in manifest.get("captures") or []:
            path = entry.get("records_file")
            if not path:
                skipped.append(f"capture {entry.get('number')}: no records in the bundle")
                continue
            blob = _store_member(bundle, path, store, max_bytes)
            try:
                capture = captures.record_upload(session, incident.id, _upload(entry, path), blob)
            except BaseException:
                store.discard_new(blob)
                raise
            imported.append(
                ImportedCapture(capture.id, capture.parse_attempt, entry.get("host"), capture.filename)
            )
    return ImportResult(incident.id, imported, skipped)


def _incident(manifest: dict[str, Any], name: str) -> IncidentCreate:
    source = manifest.get("incident") or {}
    title = str(source.get("title") or name)
    started = source.get("started_at") or manifest.get("exported_at")
    exported = manifest.get("exported_at", "?")
    note = (
        f"Imported from the bundle {name}, exported by Stallscope {manifest.get('stallscope_version', '?')} "
        f"at {exported}."
    )
    summary = str(source.get("summary") or "")
    return IncidentCreate(
        title=f"{title} (imported)"[:_TITLE_MAX],
        severity=source.get("severity") or "sev3",
        started_at=started or datetime.now(UTC),
        summary=f"{summary}\n\n{note}".strip(),
    )


def _upload(entry: dict[str, Any], path: str) -> UploadInfo:
    filename = Path(path).name
    return UploadInfo(
        filename=filename,
        host=entry.get("host") or None,
        kind=entry.get("kind"),
        meta={"bundle": {"filename": entry.get("filename"), "recorded_with": entry.get("recorded_with")}},
    )


def _store_member(bundle: zipfile.ZipFile, path: str, store: BlobStore, max_bytes: int) -> StoredBlob:
    writer = store.start_upload(max_bytes)
    try:
        with bundle.open(path) as member:
            for chunk in _chunks(member):
                writer.write(chunk)
        return writer.commit()
    except UploadTooLarge as exc:
        writer.abort()
        raise TooLarge(f"{path}: {exc}") from exc
    except BaseException:
        writer.abort()
        raise


def _chunks(member: Any) -> Iterator[bytes]:
    while chunk := member.read(_CHUNK):
        yield chunk
