"""Request bodies through Daphne as production serves them, with Twisted's own form parsing
off (config/patches/twisted.py): a form (the admin's sign-in, its CSRF token in the body), a
multipart form and a JSON body all reach Django whole."""

from __future__ import annotations

import http.client
import json
import re
import sys
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit


class Browserless:
    """One keep-alive connection with its cookies."""

    def __init__(self, base: str) -> None:
        self.conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=10)
        self.cookies: dict[str, str] = {}

    def call(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        head = dict(headers or {})
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn.request(method, path, body=body, headers=head)
        r = self.conn.getresponse()
        for value in r.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        return r.status, r.read()


def _signin_page(c: Browserless) -> str:
    status, page = c.call("GET", "/admin/login/")
    assert status == 200
    match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert match, "the sign-in form carries its CSRF token"
    return match.group(1).decode()


def test_a_form_body_reaches_django_whole(live_server_url):
    c = Browserless(live_server_url)
    token = _signin_page(c)
    form = urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": "nobody-here",
            "password": "wrong password",
            "next": "/admin/",
        }
    ).encode()
    status, page = c.call(
        "POST",
        "/admin/login/",
        form,
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": live_server_url,
            "Origin": live_server_url,
        },
    )
    # 403 if the CSRF token in the body had not reached Django; the form's own answer else.
    assert status == 200, page[:300]
    assert b"correct username and password" in page


def test_a_multipart_form_reaches_django_whole(live_server_url):
    c = Browserless(live_server_url)
    token = _signin_page(c)
    boundary = "b0undary"
    parts = (
        "".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
            for k, v in {
                "csrfmiddlewaretoken": token,
                "username": "nobody-here",
                "password": "wrong password",
            }.items()
        )
        + f"--{boundary}--\r\n"
    )
    status, page = c.call(
        "POST",
        "/admin/login/",
        parts.encode(),
        {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Referer": live_server_url,
            "Origin": live_server_url,
        },
    )
    assert status == 200, page[:300]
    assert b"correct username and password" in page


def test_a_json_body_reaches_the_api_whole(live_server_url):
    c = Browserless(live_server_url)
    status, _ = c.call("GET", "/api/me/")
    assert status == 200
    assert "csrftoken" in c.cookies
    body = json.dumps({"game": "freecell", "deal": "random"}).encode()
    status, answer = c.call(
        "POST",
        "/api/sessions/",
        body,
        {
            "Content-Type": "application/json",
            "X-CSRFToken": c.cookies["csrftoken"],
            "Referer": live_server_url,
            "Origin": live_server_url,
        },
    )
    assert status == 201, answer[:300]
    assert json.loads(answer)["game"] == "freecell"


def test_daphnes_requests_are_built_without_twisteds_form_parse():
    import daphne.server  # noqa: F401  (install() acts under Daphne only)
    from daphne import http_protocol

    from config.patches.twisted import install

    install()
    install()  # twice is once
    assert http_protocol.WebRequest.formless
    assert http_protocol.WebRequest.__mro__[1].__module__ == "daphne.http_protocol"
    assert "daphne.server" in sys.modules
