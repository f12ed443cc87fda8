"""The README's production section says what `docker-compose up` runs; docker-compose.yml must do it.

The section (`### In production: docker-compose`) is parsed for its claims: the services and what
each runs (image versions, commands, the port, the volumes) and the environment the API and the
worker get. Each claim is checked against the compose file, and the compose file's services and
passed-through variables against the section, so a change to either that the other does not follow
fails here. There is no Docker engine in CI: the file is read directly, and also as
`docker-compose config` normalises it when that tool is installed (it validates the Compose schema
without running anything).
"""

from __future__ import annotations

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
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}
PASSED_THROUGH = re.compile(r"^\$\{(\w+)(:-[^}]*)?\}$")
"""`${NAME:-}`: a value taken from the environment docker-compose runs in."""


@dataclass
class Service:
    name: str
    text: str
    command: list[str] = field(default_factory=list)


@dataclass
class Claims:
    """What the README's production section says, as parsed."""

    port: int
    services: dict[str, Service]
    url_variables: dict[str, str]
    """Variable -> the service its URL points at."""
    data_variable: str
    data_volume: str
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


def readme_claims() -> Claims:
    text = section_text()
    services = {}
    for name, what in re.findall(r"^\| `([\w-]+)` \| (.+) \|$", text, re.MULTILINE):
        command = re.search(r"`(stallscope [^`]+)`", what)
        services[name] = Service(name, what, command.group(1).split() if command else [])
    prose = " ".join(text.split())
    also = one(r"The API also takes (.+?) from the environment", prose).group(1)
    data = one(r"keep their data in `(\w+)`, where the `(\w+)` volume is mounted", prose)
    return Claims(
        port=int(one(r"open http://localhost:(\d+)", text).group(1)),
        services=services,
        url_variables=dict(re.findall(r"through `(\w+)` \(the `([\w-]+)` service\)", prose)),
        data_variable=data.group(1),
        data_volume=data.group(2),
        api_variables=re.findall(r"`(\w+)`", also),
        logs_service=one(r"`docker-compose logs ([\w-]+)`", prose).group(1),
    )


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """Volume name -> where it is mounted, from the short (`name:/path`) or the long syntax."""
    found = {}
    for volume in service.get("volumes", []):
        if isinstance(volume, dict):
            found[str(volume.get("source"))] = str(volume.get("target"))
        else:
            source, target = str(volume).split(":")[:2]
            found[source] = target
    return found


def published(service: dict[str, Any]) -> set[tuple[int, int]]:
    """(host port, container port) pairs, from `"8000:8000"` or the long syntax."""
    pairs = set()
    for port in service.get("ports", []):
        if isinstance(port, dict):
            pairs.add((int(port["published"]), int(port["target"])))
        else:
            host, container = str(port).split("/")[0].split(":")[-2:]
            pairs.add((int(host), int(container)))
    return pairs


def command_of(service: dict[str, Any]) -> list[str]:
    command = service.get("command", [])
    return command.split() if isinstance(command, str) else [str(part) for part in command]


def is_subsequence(words: list[str], command: list[str]) -> bool:
    rest = iter(command)
    return all(word in rest for word in words)


def check_compose_against_readme(config: dict[str, Any], claims: Claims, raw: bool) -> None:
    """Every claim holds in `config`; `raw`: the file as written (variables not yet substituted)."""
    services = config["services"]
    assert set(services) == set(claims.services), "the README's table lists exactly the compose services"
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
        timescale = re.search(r"TimescaleDB (\S+) on PostgreSQL (\d+) \(what the tests run\)", claim.text)
        if timescale is not None:
            version, major = timescale.groups()
            assert service["image"] == f"timescale/timescaledb:{version}-pg{major}"
            assert (version, major) == (TIMESCALEDB_VERSION, str(POSTGRES_MAJOR))
        if (redis := re.search(r"Redis (\d+)", claim.text)) is not None:
            assert str(service["image"]).startswith(f"redis:{redis.group(1)}")
    for name in claims.app_services:
        env = services[name]["environment"]
        for variable, target in claims.url_variables.items():
            assert urlsplit(str(env[variable])).hostname == target, (name, variable, env[variable])
        assert mounts(services[name])[claims.data_volume] == env[claims.data_variable], name
    api = services[next(n for n in claims.app_services if claims.services[n].command[1] == "serve")]
    for variable in claims.api_variables:
        assert variable in api["environment"], variable
        if raw:
            found = PASSED_THROUGH.match(str(api["environment"][variable]))
            assert found is not None, (variable, "is not taken from the environment docker-compose runs in")
            assert found.group(1) == variable
    if raw:
        passed = [k for k, v in api["environment"].items() if PASSED_THROUGH.match(str(v))]
        assert sorted(passed) == sorted(claims.api_variables), "the README names every variable passed on"
    assert claims.logs_service in services


def test_the_readme_section_is_there_and_says_something() -> None:
    claims = readme_claims()
    assert len(claims.services) >= 4
    assert len(claims.app_services) == 2
    assert set(claims.url_variables) == {"DATABASE_URL", "CELERY_BROKER_URL"}
    assert claims.api_variables


def test_the_compose_file_does_what_the_readme_says() -> None:
    check_compose_against_readme(yaml.safe_load(COMPOSE_FILE.read_text()), readme_claims(), raw=True)


def test_a_drifted_compose_file_fails_the_check() -> None:
    """The check is not vacuous: each kind of drift is caught."""
    claims = readme_claims()
    drifts = [
        lambda c: c["services"].pop("redis"),
        lambda c: c["services"]["api"].update(ports=["8080:8000"]),
        lambda c: c["services"]["worker"].update(command=["stallscope", "worker", "--concurrency", "4"]),
        lambda c: c["services"]["timescaledb"].update(image="timescale/timescaledb:2.17.0-pg16"),
        lambda c: c["services"]["worker"].update(volumes=[]),
        lambda c: c["services"]["api"]["environment"].update(CELERY_BROKER_URL="redis://cache:6379/0"),
        lambda c: c["services"]["api"]["environment"].pop("STALLSCOPE_OIDC_ISSUER"),
        lambda c: c["services"]["api"]["environment"].update(STALLSCOPE_NEW="${STALLSCOPE_NEW:-}"),
    ]
    for drift in drifts:
        config = yaml.safe_load(COMPOSE_FILE.read_text())
        drift(config)
        with pytest.raises(AssertionError):
            check_compose_against_readme(config, claims, raw=True)


def test_docker_compose_accepts_the_file() -> None:
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.skip("docker-compose is not installed (the test command installs Debian's package)")
    result = subprocess.run(
        [tool, "-f", str(COMPOSE_FILE), "config"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    check_compose_against_readme(yaml.safe_load(result.stdout), readme_claims(), raw=False)
