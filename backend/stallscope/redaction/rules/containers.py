"""Container, pod and cgroup names: docker/containerd/CRI-O ids in cgroup paths, Kubernetes pod
uids, and the container names the exporter knows.

Why: a container id or pod uid ties a capture to one deployment in a company's cluster, and cgroup
paths print them on every line that names a cgroup (`/docker/<64 hex>`, `docker-<id>.scope`,
`cri-containerd-<id>.scope`, `kubepods-burstable-pod<uid>.slice`, `/kubepods/besteffort/pod<uid>/`).
An id becomes `container-N` (its 12-character short form, which `docker ps` and the container's own
hostname show, gets the same), a pod `pod-N`; the cgroup path keeps its shape.
"""

from __future__ import annotations

import re

from stallscope.redaction.engine import Fragment, Hints, Swap
from stallscope.redaction.policy import CONTAINERS
from stallscope.redaction.state import State

ID = CONTAINERS
LABEL = "Containers, pods and cgroups"

_ID = (
    r"(?:docker[-/]|cri-containerd-|containerd[-/]|crio[-/]|cri-o[-/]|libpod-|libpod-conmon-|"
    r"containers/)(?P<ctr_id>[0-9a-f]{64})(?![0-9a-f])"
)
_POD = (
    r"pod(?P<pod_uid>[0-9a-f]{8}(?P<pod_sep>[-_])[0-9a-f]{4}(?P=pod_sep)[0-9a-f]{4}(?P=pod_sep)"
    r"[0-9a-f]{4}(?P=pod_sep)[0-9a-f]{12})(?![0-9a-f])(?:/(?P<pod_ctr>[0-9a-f]{64})(?![0-9a-f]))?"
)
"""A pod, and in the cgroupfs layout the container id below it (`/kubepods/burstable/pod<uid>/<id>`)."""
_HINTS = ("docker", "container", "cri", "libpod")
_LEARN_HINTS = Hints(["docker", "container", "cri", "pod"])
"""Words every pattern below holds (`cri` for crio and cri-o, `pod` for libpod and pods)."""


class ContainerRule:
    id = ID
    label = LABEL

    def __init__(self, state: State) -> None:
        self.state = state
        self._learner = re.compile(f"{_ID}|{_POD}")

    def learn(self, text: str, lowered: str) -> None:
        if not _LEARN_HINTS.found_in(text):
            return
        for found in self._learner.finditer(text):
            if found.group("ctr_id"):
                self.state.container(found.group("ctr_id"))
            else:
                self.state.pod(found.group("pod_uid"))
                if found.group("pod_ctr"):
                    self.state.container(found.group("pod_ctr"))

    def fragments(self) -> list[Fragment]:
        return [
            Fragment("ctr", _ID, self._container, _HINTS),
            Fragment("pod", _POD, self._pod, ("pod",)),
        ]

    def _container(self, match: re.Match[str]) -> Swap | None:
        start, end = match.span("ctr_id")
        return Swap(ID, start, end, self.state.container(match.group("ctr_id")) or "container")

    def _pod(self, match: re.Match[str]) -> Swap | None:
        pseudonym = self.state.pod(match.group("pod_uid"))
        container = match.group("pod_ctr")
        if container:
            pseudonym += "/" + (self.state.container(container) or container)
        return Swap(ID, match.start(), match.end(), pseudonym)
