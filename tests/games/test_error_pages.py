"""Styled, translated 404, 403 and 500 pages in the site's layout (frontend/errors.py); the
API keeps its JSON errors (config/errors.py).  Every error answer carries the request id."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.games.error_urls")]


def html(client: Client, path: str, status: int, method: str = "get") -> str:
    r = getattr(client, method)(path)
    assert r.status_code == status, (path, r.status_code)
    assert r["Content-Type"].startswith("text/html")
    assert r["X-Request-ID"]
    body = r.content.decode()
    assert '<header class="site">' in body
    assert 'href="/"' in body  # the site's own layout
    assert "frontend/css/site" in body
    return body


def test_a_missing_page_is_the_sites_404_in_either_language():
    body = html(Client(), "/no/such/page/", 404)
    assert "This page is not in the deck" in body
    assert "<code>/no/such/page/</code>" in body
    fr = html(Client(HTTP_ACCEPT_LANGUAGE="fr"), "/no/such/page/", 404)
    assert '<html lang="fr">' in fr
    assert "Cette page n’est pas dans le paquet" in fr
    # An unknown game's table is a 404 too (the view raises Http404).
    assert "This page is not in the deck" in html(Client(), "/play/no-such-game/", 404)


def test_a_path_with_markup_is_shown_as_text():
    body = html(Client(), "/<script>alert(1)</script>/", 404)
    assert "<script>alert(1)" not in body
    assert "&lt;script&gt;" in body


def test_a_server_error_is_the_sites_500_and_says_the_game_is_safe():
    client = Client(raise_request_exception=False)
    body = html(client, "/broken/", 500)
    assert "Something broke on our side" in body
    assert "every move is stored" in body
    assert "a bug" not in body  # nothing of the error itself
    fr = html(Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="fr"), "/broken/", 500)
    assert "Une erreur est survenue chez nous" in fr


def test_forbidden_and_an_expired_form_are_the_sites_403():
    assert "Not allowed" in html(Client(), "/forbidden/", 403)
    # A form posted without its CSRF token (here the language switch): says to reload.
    body = html(Client(enforce_csrf_checks=True), "/i18n/setlang/", 403, "post")
    assert "That form has expired" in body
    assert "reload the page" in body


@pytest.mark.parametrize(
    ("path", "status", "error"),
    [
        ("/api/no/such/", 404, "not_found"),
        ("/api/broken/", 500, "server_error"),
        ("/api/forbidden/", 403, "forbidden"),
    ],
)
def test_the_api_keeps_its_json_errors(path, status, error):
    r = Client(raise_request_exception=False).get(path)
    assert r.status_code == status
    assert r["Content-Type"] == "application/json"
    assert r.json()["error"] == error
    assert r.json()["reason"]
    assert r["X-Request-ID"]
