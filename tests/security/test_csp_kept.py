"""The Content-Security-Policy header built once and kept (config/security.py) is the one
django-csp builds for each answer, and a change of the policy's settings is seen."""

from __future__ import annotations

from csp.middleware import CSPMiddleware as DjangoCSP
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings

from config.security import CSPMiddleware


def _directives(policy: str) -> set[str]:
    return set(policy.split("; "))


def _built(path: str, **extra: str) -> str:
    request = RequestFactory().get(path, **extra)
    return DjangoCSP.process_response(CSPMiddleware(HttpResponse), request, HttpResponse())[
        "Content-Security-Policy"
    ]


def test_each_answer_carries_the_policy_django_csp_builds(db):
    for path in ("/", "/api/me/", "/admin/login/"):
        for extra in ({}, {"HTTP_HOST": "localhost"}, {"wsgi.url_scheme": "https"}):
            got = Client().get(path, **extra)["Content-Security-Policy"]
            assert _directives(got) == _directives(_built(path, **extra)), (path, extra)
    assert "'unsafe-inline'" in Client().get("/admin/login/")["Content-Security-Policy"]
    assert (
        "wss://localhost"
        in Client().get("/", HTTP_HOST="localhost", secure=True)["Content-Security-Policy"]
    )
    policy = settings.CONTENT_SECURITY_POLICY
    stricter = {**policy, "DIRECTIVES": {**policy["DIRECTIVES"], "img-src": ["'self'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=stricter):
        assert "img-src 'self';" in Client().get("/")["Content-Security-Policy"] + ";"
    assert "data:" in Client().get("/")["Content-Security-Policy"]
