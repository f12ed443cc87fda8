"""`stallscope export` and `stallscope import`: an incident's bundle out of one console, into another.

Both talk to a running console (`--server` or `STALLSCOPE_SERVER`, credentials from
`STALLSCOPE_TOKEN`): the export is made by the console that holds the incident, so it shows exactly
what that console shows, redacted by the console's rules; the import is parsed by the receiving one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import httpx

from stallscope.client import ApiError, check_answer, client_headers, wait_parsed

EXPORT_HELP = "download an incident as one zip for a vendor: offline views, data, findings, redacted"
EXPORT_DESCRIPTION = """\
Export an incident as a bundle: index.html (opens offline, from the file, with every chosen view),
folded stacks, pprof and speedscope files per flame graph, events and metrics as CSV, snapshots,
findings, the postmortem, and manifest.json (provenance and SHA-256 of every file). Host names,
user names, addresses, home paths, environment values and container names are replaced by
consistent pseudonyms (host-1, user-2…) unless --redact none; symbols are kept.

examples:
  stallscope export 12 --out incident-12.zip
  stallscope export 12 --out db7.zip --captures 31,32 --redact rules.toml
  stallscope export 12 --out raw.zip --raw --views Xk3d9aQe

RULES.toml (every key optional):
  hash_symbols = false
  path_prefixes = ["/home/", "/srv/"]
  [rules]                  # hostnames users addresses paths arguments containers: true or false
  addresses = false
  [[custom]]
  name = "ticket"
  pattern = "TICKET-[0-9]+"
"""

IMPORT_HELP = "import a bundle as a new incident (the vendor's side of an escalation)"
IMPORT_DESCRIPTION = """\
Import a bundle made by `stallscope export` (or the console's Export) into this console as a new
incident. Every capture is parsed again from the stored records in the bundle, so the views show
the same numbers as the console that exported it.

example:
  stallscope import incident-12.zip --wait
"""

_CHUNK = 1 << 20


def add_export_arguments(p: argparse.ArgumentParser, server_default: str) -> None:
    p.add_argument("incident", type=int, metavar="INCIDENT_ID")
    p.add_argument("--out", type=Path, required=True, metavar="FILE.zip", help="where to write the bundle")
    p.add_argument(
        "--redact",
        default="default",
        metavar="default|none|RULES.toml",
        help="redaction: every built-in rule (default), none, or the rules in a TOML file",
    )
    p.add_argument("--captures", metavar="IDS", help="only these captures, e.g. 31,32 (default: all)")
    p.add_argument("--hosts", metavar="NAMES", help="only the captures of these hosts, comma-separated")
    p.add_argument("--views", metavar="SHORT_LINK_IDS", help="saved views (short link ids) to include")
    p.add_argument("--raw", action="store_true", help="include the raw captures (redacted like the rest)")
    p.add_argument(
        "--from", dest="start", metavar="TIME", help="views and CSV files from this instant (ISO 8601)"
    )
    p.add_argument(
        "--to", dest="end", metavar="TIME", help="views and CSV files before this instant (ISO 8601)"
    )
    p.add_argument(
        "--server",
        default=server_default,
        metavar="URL",
        help="the console's address (default %(default)s, or STALLSCOPE_SERVER)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress output")


def add_import_arguments(p: argparse.ArgumentParser, server_default: str) -> None:
    p.add_argument("bundle", type=Path, metavar="FILE.zip")
    p.add_argument(
        "--server",
        default=server_default,
        metavar="URL",
        help="the console's address (default %(default)s, or STALLSCOPE_SERVER)",
    )
    p.add_argument("--wait", action="store_true", help="wait until every capture is parsed")
    p.add_argument("--quiet", action="store_true", help="no progress output")


def export_request(args: argparse.Namespace) -> dict[str, Any]:
    """The export's JSON body from the command line; a RULES.toml is read and checked here first."""
    body: dict[str, Any] = {"raw": args.raw, "redaction": _redaction(args.redact)}
    if args.captures:
        body["captures"] = _ids(args.captures, "--captures")
    if args.hosts:
        body["hosts"] = [h.strip() for h in args.hosts.split(",") if h.strip()]
    if args.views:
        body["views"] = [v.strip() for v in args.views.split(",") if v.strip()]
    if args.start:
        body["start"] = args.start
    if args.end:
        body["end"] = args.end
    return body


def _redaction(choice: str) -> dict[str, Any]:
    if choice in ("default", "none"):
        return {"mode": choice}
    from stallscope.redaction import load_policy_toml, policy_to_json

    path = Path(choice)
    try:
        policy = load_policy_toml(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ApiError(f"{path}: {exc}") from exc
    return {"mode": "custom", "policy": policy_to_json(policy)}


def _ids(text: str, option: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ApiError(f"{option} takes capture ids separated by commas, e.g. 31,32 (got {text!r})") from None


def run_export(args: argparse.Namespace) -> int:
    body = export_request(args)
    out: Path = args.out
    partial = out.with_name(out.name + ".part")
    with (
        httpx.Client(
            base_url=args.server, headers=client_headers(), timeout=httpx.Timeout(60.0, read=900.0)
        ) as c,
        c.stream("POST", f"/api/incidents/{args.incident}/bundle", json=body) as response,
    ):
        if response.status_code >= 400:
            response.read()
            check_answer(response)
        received = 0
        with open(partial, "wb") as handle:
            for chunk in response.iter_bytes(_CHUNK):
                handle.write(chunk)
                received += len(chunk)
                if not args.quiet:
                    sys.stderr.write(f"\r  {out.name}: {received:,} bytes")
                    sys.stderr.flush()
    partial.replace(out)
    if not args.quiet:
        sys.stderr.write("\n")
    print(f"{out} ({received:,} bytes): open index.html inside it in a browser, offline")
    return 0


def run_import(args: argparse.Namespace) -> int:
    path: Path = args.bundle
    size = path.stat().st_size
    with (
        httpx.Client(
            base_url=args.server, headers=client_headers(), timeout=httpx.Timeout(60.0, read=900.0)
        ) as c,
        open(path, "rb") as handle,
    ):
        response = c.post(
            "/api/bundles",
            params={"filename": path.name},
            content=iter(lambda: handle.read(_CHUNK), b""),
            headers={"Content-Type": "application/octet-stream", "Content-Length": str(size)},
        )
    result: dict[str, Any] = check_answer(response)
    incident = result["incident_id"]
    print(f"incident {incident}: {args.server.rstrip('/')}/incidents/{incident}")
    for skipped in result.get("skipped", []):
        print(f"  skipped {skipped}", file=sys.stderr)
    failed = 0
    for capture in result["captures"]:
        line = f"  capture {capture['id']} {capture['filename']} (host {capture['host'] or '-'})"
        if args.wait:
            done = wait_parsed(args.server, capture["id"], not args.quiet)
            line += f": {done['status']}"
            failed += done["status"] == "failed"
        print(line)
    return 1 if failed else 0
