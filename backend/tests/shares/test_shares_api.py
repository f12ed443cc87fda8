"""Short links: made once per view, followed by a redirect, and never pointed outside the console."""

from __future__ import annotations

from fastapi.testclient import TestClient

TARGET = "/flame?v=3&incident=4&captures=7&from=2026-11-21T08:00:01.000000Z&q=a%26b&zoom=main"


def test_a_view_gets_one_short_link_that_redirects_to_it(api: TestClient) -> None:
    first = api.post("/api/shares", json={"target": TARGET})
    assert first.status_code == 201, first.text
    link = first.json()
    assert link["target"] == TARGET
    assert link["path"] == f"/s/{link['id']}"
    assert len(link["id"]) == 8
    again = api.post("/api/shares", json={"target": TARGET}).json()
    assert again["id"] == link["id"]
    followed = api.get(link["path"], follow_redirects=False)
    assert followed.status_code == 302
    assert followed.headers["location"] == TARGET
    assert api.get(f"/api/shares/{link['id']}").json()["target"] == TARGET


def test_links_outside_the_console_or_to_unknown_pages_are_refused(api: TestClient) -> None:
    for target in (
        "https://evil.example/",
        "//evil.example/x",
        "javascript:alert(1)",
        "/api/flame?x",
        "flame",
    ):
        response = api.post("/api/shares", json={"target": target})
        assert response.status_code == 422, target


def test_an_unknown_link_says_so(api: TestClient) -> None:
    response = api.get("/s/<nope>", follow_redirects=False)
    assert response.status_code == 404
    assert "&lt;nope&gt;" in response.text
    assert api.get("/api/shares/nope").status_code == 404
