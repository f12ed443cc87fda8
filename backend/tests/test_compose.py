"""The README's production section says what `docker-compose up` runs; docker-compose.yml must do it.

The section (`### In production: docker-compose`) is parsed for its claims: the services and what
each runs (image versions, commands, the port, the volumes), the services the API and the worker
reach and wait for, the upload settings they take from the environment, the key pair they share
with the object store, that they share no volume, and that workers scale. Each claim is checked
against the compose file, and the compose file's services, volumes and passed-through variables
against the section, so a change to either that the other does not follow fails here. There is no
Docker engine in CI: the file is read directly, and also as `docker-compose config` normalises it
when that tool is installed (it validates the Compose schema without running anything).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests.fixtures.timescaledb_server import POSTGRES_MAJOR, TIMESCALEDB_VERSION

REPO_ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO_ROOT / "docker-compose.yml"
README = REPO_ROOT / "README.md"
SECTION = "### In production: docker-compose"
SERVICES_HEADER = "| service | what it runs |"
UPLOADS_HEADER = "| in the API and the worker | taken from | default |"
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}
PASSED_THROUGH = re.compile(r"^\$\{(\w+)(?:(:?)-([^}]*))?\}$")
"""`${NAME:-default}` (or `${NAME-default}`, where a set but empty NAME stays empty): a value taken
from the environment docker-compose runs in."""
EXACT_TAG = re.compile(r"^\d+\.\d+(\.\d+)*([-_][\w.-]+)?$")
"""A release's own tag (`4.48`, `7.4.11-alpine`, `2.29.2-pg18`), not a moving one (`7-alpine`, `latest`)."""
S3_GATEWAY_PORT = "8333"
"""`weed server`'s S3 port when its command gives no `-s3.port`."""


@dataclass
class Service:
    name: str
    text: str
    command: list[str] = field(default_factory=list)


@dataclass
class Upload:
    """A row of the upload settings table: the variable the console reads, where it comes from."""

    source: str
    default: str


@dataclass
class Claims:
    """What the README's production section says, as parsed."""

    port: int
    services: dict[str, Service]
    url_variables: dict[str, str]
    """Variable -> the service its URL points at."""
    waits_until_healthy: bool
    shares_no_volume: bool
    scaled: tuple[str, int]
    """`--scale worker=4`: the service started more than once, and how many."""
    uploads: dict[str, Upload]
    set_but_empty: list[str]
    """Environment variables whose empty value is kept rather than replaced by the default."""
    key_pair: tuple[list[str], str]
    """The key pair's variables, and the object store service started with the same values."""
    api_variables: list[str]
    logs_service: str

    @property
    def app_services(self) -> list[str]:
        """The services that run `stallscope` itself."""
        return [name for name, service in self.services.items() if service.command]


def section_text() -> str:
    text = README.read_text()
    assert SECTION in text, f"the README has no {SECTION!r} section"
    body = text.split(SECTION, 1)[1]
    return re.split(r"^#{2,3} ", body, maxsplit=1, flags=re.MULTILINE)[0]


def one(pattern: str, text: str) -> re.Match[str]:
    found = re.search(pattern, text, re.DOTALL)
    assert found is not None, f"the README's production section no longer says /{pattern}/"
    return found


def table(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the table under `header` (its separator row skipped)."""
    lines = text.splitlines()
    assert header in lines, f"the README's production section has no table headed {header!r}"
    rows = []
    for line in itertools.takewhile(lambda line: line.startswith("|"), lines[lines.index(header) + 2 :]):
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def quoted(cell: str) -> str:
    return one(r"^`([^`]*)`", cell).group(1)


def readme_claims() -> Claims:
    text = section_text()
    services = {}
    for cell, what in table(text, SERVICES_HEADER):
        command = re.search(r"`(stallscope [^`]+)`", what)
        services[quoted(cell)] = Service(quoted(cell), what, command.group(1).split() if command else [])
    uploads = {
        quoted(var): Upload(quoted(source), quoted(default))
        for var, source, default in table(text, UPLOADS_HEADER)
    }
    prose = " ".join(text.split())
    also = one(r"The API also takes (.+?) from the environment", prose).group(1)
    scaled = one(r"--scale ([\w-]+)=(\d+)", text)
    pair = one(r"the same key pair \(`(\w+)` and `(\w+)` in the `([\w-]+)` service\)", prose)
    return Claims(
        port=int(one(r"open http://localhost:(\d+)", text).group(1)),
        services=services,
        url_variables=dict(re.findall(r"through `(\w+)` \(the `([\w-]+)` service\)", prose)),
        waits_until_healthy="start once those services report healthy" in prose,
        shares_no_volume="no volume is mounted by both" in prose,
        scaled=(scaled.group(1), int(scaled.group(2))),
        uploads=uploads,
        set_but_empty=re.findall(r"`(\w+)` to [^`(]+\(set but empty", prose),
        key_pair=([pair.group(1), pair.group(2)], pair.group(3)),
        api_variables=re.findall(r"`(\w+)`", also),
        logs_service=one(r"`docker-compose logs ([\w-]+)`", prose).group(1),
    )


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """Volume name (or bind-mounted host path) -> where it is mounted, from either syntax.

    An anonymous volume (`/path` alone) belongs to one container and is left out.
    """
    found = {}
    for volume in service.get("volumes", []):
        if isinstance(volume, dict):
            if volume.get("source"):
                found[str(volume["source"])] = str(volume.get("target"))
        elif ":" in str(volume):
            source, target = str(volume).split(":")[:2]
            found[source] = target
    return found


def published(service: dict[str, Any]) -> set[tuple[int, int]]:
    """(host port, container port) pairs, from `"8000:8000"` or the long syntax; unpublished ones left out."""
    pairs = set()
    for port in service.get("ports", []):
        if isinstance(port, dict):
            if port.get("published"):
                pairs.add((int(port["published"]), int(port["target"])))
        elif ":" in str(port):
            host, container = str(port).split("/")[0].split(":")[-2:]
            pairs.add((int(host), int(container)))
    return pairs


def command_of(service: dict[str, Any]) -> list[str]:
    command = service.get("command", [])
    return command.split() if isinstance(command, str) else [str(part) for part in command]


def flag(service: dict[str, Any], name: str, default: str) -> str:
    """The value of `-name=value` in the service's command, else `default`."""
    values = [part.split("=", 1)[1] for part in command_of(service) if part.startswith(f"-{name}=")]
    return values[-1] if values else default


def is_subsequence(words: list[str], command: list[str]) -> bool:
    rest = iter(command)
    return all(word in rest for word in words)


def dependencies(service: dict[str, Any]) -> dict[str, str]:
    """Service -> the condition it is waited for, from the list or the long syntax."""
    depends_on = service.get("depends_on", {})
    if isinstance(depends_on, list):
        return dict.fromkeys(depends_on, "service_started")
    return {name: str((how or {}).get("condition", "service_started")) for name, how in depends_on.items()}


def resolved(value: Any) -> str:
    """What a variable holds when docker-compose runs in an environment that does not set it."""
    found = PASSED_THROUGH.match(str(value))
    return str(value) if found is None else found.group(3) or ""


def passed_through(service: dict[str, Any]) -> dict[str, str]:
    """Variable -> the environment variable of docker-compose's it is taken from."""
    env = service.get("environment", {})
    return {k: found.group(1) for k, v in env.items() if (found := PASSED_THROUGH.match(str(v)))}


def check_image(name: str, claim: Service, service: dict[str, Any]) -> None:
    timescale = re.search(r"TimescaleDB (\S+) on PostgreSQL (\d+) \(what the tests run\)", claim.text)
    if timescale is not None:
        version, major = timescale.groups()
        assert service["image"] == f"timescale/timescaledb:{version}-pg{major}"
        assert (version, major) == (TIMESCALEDB_VERSION, str(POSTGRES_MAJOR))
    if (redis := re.search(r"Redis (\d+(?:\.\d+)*)", claim.text)) is not None:
        assert re.fullmatch(rf"redis:{re.escape(redis.group(1))}(-\w+)?", str(service["image"])), name
    if (seaweedfs := re.search(r"SeaweedFS (\d+(?:\.\d+)*) \(Apache-2.0\)", claim.text)) is not None:
        assert service["image"] == f"chrislusf/seaweedfs:{seaweedfs.group(1)}", name
    if "S3-compatible object store" in claim.text:
        assert is_subsequence(["server", "-s3"], command_of(service)), (name, "runs no S3 gateway")


def check_services(config: dict[str, Any], claims: Claims) -> None:
    services = config["services"]
    assert set(services) == set(claims.services), "the README's table lists exactly the compose services"
    named_volumes = set()
    for name, claim in claims.services.items():
        service = services[name]
        if claim.command:
            assert is_subsequence(claim.command, command_of(service)), (name, claim.command, service)
        if (words := re.search(r"(\w+) parses at once", claim.text)) is not None:
            concurrency = command_of(service)[command_of(service).index("--concurrency") + 1]
            assert int(concurrency) == NUMBERS[words.group(1)], (name, concurrency)
        if (port := re.search(r"on port (\d+)", claim.text)) is not None:
            assert int(port.group(1)) == claims.port
            assert (claims.port, claims.port) in published(service), (name, service.get("ports"))
        for volume in re.findall(r"the `([\w-]+)` volume", claim.text):
            assert volume in config["volumes"], volume
            assert volume in mounts(service), (name, volume)
            named_volumes.add(volume)
        check_image(name, claim, service)
    assert set(config.get("volumes") or {}) == named_volumes, "the README's table names every volume"
    built = {str(s["image"]) for s in services.values() if "build" in s and "image" in s}
    for name, service in services.items():
        image = str(service.get("image", ""))
        if image and image not in built:
            tag = image.split("@")[0].rpartition(":")[2]
            assert EXACT_TAG.match(tag), (name, image, "is not pinned to a release")


def check_app_services(config: dict[str, Any], claims: Claims) -> None:
    """What the API and the worker reach, wait for and take from the environment; what they share."""
    services = config["services"]
    for name in claims.app_services:
        service = services[name]
        env = service["environment"]
        for variable, target in claims.url_variables.items():
            assert variable in env, (name, variable)
            assert urlsplit(resolved(env[variable])).hostname == target, (name, variable, env[variable])
            if claims.waits_until_healthy:
                assert "healthcheck" in services[target], target
                condition = dependencies(service).get(target)
                assert condition == "service_healthy", (name, "does not wait for", target)
        for variable, upload in claims.uploads.items():
            assert variable in env, (name, variable)
            assert resolved(env[variable]) == upload.default, (name, variable, env[variable])
    if claims.shares_no_volume:
        for first, second in itertools.combinations(claims.app_services, 2):
            shared = set(mounts(services[first])) & set(mounts(services[second]))
            assert not shared, (first, second, "both mount", shared)
        for name in claims.app_services:
            assert "volumes_from" not in services[name], name
    scaled, count = claims.scaled
    assert count > 1, claims.scaled
    assert scaled in claims.app_services, claims.scaled
    assert "container_name" not in services[scaled], "a fixed container name cannot be started twice"
    assert not published(services[scaled]), "a fixed host port cannot be published twice"
    variables, store = claims.key_pair
    assert store in claims.url_variables.values(), store
    for name in claims.app_services:
        for variable in variables:
            assert variable in claims.uploads, variable
            theirs = services[store].get("environment", {}).get(variable)
            assert theirs == services[name]["environment"][variable], (store, variable, "is not the same")
    endpoint = next(v for v, target in claims.url_variables.items() if target == store)
    port = urlsplit(resolved(services[claims.app_services[0]]["environment"][endpoint])).port
    gateway = flag(services[store], "s3.port", S3_GATEWAY_PORT)
    assert str(port) == gateway, (endpoint, port, "is not the S3 port")


def check_passed_through(config: dict[str, Any], claims: Claims) -> None:
    """The file as written: each variable taken from the environment is in the README, and back."""
    services = config["services"]
    uploads = {variable: upload.source for variable, upload in claims.uploads.items()}
    api = next(n for n in claims.app_services if claims.services[n].command[1] == "serve")
    for name in claims.app_services:
        expected = uploads | ({v: v for v in claims.api_variables} if name == api else {})
        assert passed_through(services[name]) == expected, (name, "the README names every variable passed on")
        for variable, value in services[name]["environment"].items():
            found = PASSED_THROUGH.match(str(value))
            if found is not None and found.group(1) in claims.set_but_empty:
                assert found.group(2) == "", (name, variable, "replaces an empty value by the default")
    for variable in claims.api_variables:
        assert variable in services[api]["environment"], variable


def check_compose_against_readme(config: dict[str, Any], claims: Claims, raw: bool) -> None:
    """Every claim holds in `config`; `raw`: the file as written (variables not yet substituted)."""
    check_services(config, claims)
    check_app_services(config, claims)
    if raw:
        check_passed_through(config, claims)
    assert claims.logs_service in config["services"]


def test_the_readme_section_is_there_and_says_something() -> None:
    claims = readme_claims()
    assert len(claims.services) >= 5
    assert len(claims.app_services) == 2
    assert set(claims.url_variables) == {"DATABASE_URL", "CELERY_BROKER_URL", "AWS_ENDPOINT_URL_S3"}
    assert set(claims.uploads) == {
        "STALLSCOPE_BLOB_URL",
        "AWS_ENDPOINT_URL_S3",
        "AWS_REGION",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
    }
    assert urlsplit(claims.uploads["STALLSCOPE_BLOB_URL"].default).scheme == "s3"
    assert claims.key_pair == (["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"], "seaweedfs")
    assert claims.waits_until_healthy
    assert claims.shares_no_volume
    assert claims.set_but_empty == ["STALLSCOPE_S3_ENDPOINT"]
    assert claims.api_variables


def test_the_compose_file_does_what_the_readme_says() -> None:
    check_compose_against_readme(yaml.safe_load(COMPOSE_FILE.read_text()), readme_claims(), raw=True)


def test_a_drifted_compose_file_fails_the_check() -> None:
    """The check is not vacuous: each kind of drift is caught."""
    claims = readme_claims()
    seaweedfs_env = "services", "seaweedfs", "environment"
    drifts: list[tuple[tuple[str, ...], Any]] = [
        (("services", "redis"), None),
        (("services", "api", "ports"), ["8080:8000"]),
        (("services", "worker", "command"), ["stallscope", "worker", "--concurrency", "4"]),
        (("services", "timescaledb", "image"), "timescale/timescaledb:2.17.0-pg16"),
        (("services", "redis", "image"), "redis:7-alpine"),
        (("services", "seaweedfs", "image"), "chrislusf/seaweedfs:latest"),
        (("services", "seaweedfs", "image"), "minio/minio:RELEASE.2025-04-22T22-12-26Z"),
        (("services", "seaweedfs", "command"), ["server", "-ip.bind=0.0.0.0"]),
        (("services", "seaweedfs", "command"), ["server", "-s3", "-s3.port=9000"]),
        (("services", "seaweedfs", "volumes"), []),
        (("services", "seaweedfs", "healthcheck"), None),
        (("volumes", "objects"), None),
        (("services", "api", "environment", "CELERY_BROKER_URL"), "redis://cache:6379/0"),
        (("services", "api", "environment", "STALLSCOPE_OIDC_ISSUER"), None),
        (("services", "api", "environment", "STALLSCOPE_NEW"), "${STALLSCOPE_NEW:-}"),
        (("services", "worker", "environment", "STALLSCOPE_BLOB_URL"), None),
        (("services", "worker", "environment", "STALLSCOPE_BLOB_URL"), "${STALLSCOPE_BLOB_URL:-s3://other}"),
        (("services", "worker", "environment", "AWS_REGION"), "us-east-1"),
        (
            ("services", "api", "environment", "AWS_ENDPOINT_URL_S3"),
            "${STALLSCOPE_S3_ENDPOINT-http://s3:8333}",
        ),
        (
            ("services", "api", "environment", "AWS_ENDPOINT_URL_S3"),
            "${STALLSCOPE_S3_ENDPOINT:-http://seaweedfs:8333}",
        ),
        ((*seaweedfs_env, "AWS_SECRET_ACCESS_KEY"), "${STALLSCOPE_S3_SECRET_KEY:-other}"),
        ((*seaweedfs_env, "AWS_ACCESS_KEY_ID"), None),
        (("services", "worker", "depends_on", "seaweedfs"), {"condition": "service_started"}),
        (("services", "api", "depends_on", "seaweedfs"), None),
        (("services", "worker", "container_name"), "stallscope-worker"),
        (("services", "worker", "ports"), ["9000:9000"]),
        (("services", "worker", "volumes_from"), ["api"]),
    ]
    for path, value in drifts:
        config = yaml.safe_load(COMPOSE_FILE.read_text())
        *parents, key = path
        node = config
        for part in parents:
            node = node[part]
        if value is None:
            node.pop(key)
        else:
            node[key] = value
        with pytest.raises(AssertionError):
            check_compose_against_readme(config, claims, raw=True)
    for shared in ("objects:/uploads", "./uploads:/uploads"):  # a named volume, a host directory
        config = yaml.safe_load(COMPOSE_FILE.read_text())
        config["services"]["api"]["volumes"] = [shared]
        config["services"]["worker"]["volumes"] = [shared]
        with pytest.raises(AssertionError, match="both mount"):
            check_compose_against_readme(config, claims, raw=True)


def test_docker_compose_accepts_the_file() -> None:
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.skip("docker-compose is not installed (the test command installs Debian's package)")
    # The defaults, not whatever this shell happens to set.
    env = {k: v for k, v in os.environ.items() if not k.startswith("STALLSCOPE_")}
    result = subprocess.run(
        [tool, "-f", str(COMPOSE_FILE), "config"], capture_output=True, text=True, check=False, env=env
    )
    assert result.returncode == 0, result.stderr
    check_compose_against_readme(yaml.safe_load(result.stdout), readme_claims(), raw=False)
