"""Who may read /metrics, and the requests counted by view (in-process; the figures of
real processes: tests/reliability/test_metrics.py)."""

from __future__ import annotations

import pytest

from config import metrics


@pytest.mark.parametrize(
    ("address", "allowed"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("10.0.0.5", False),
        ("203.0.113.7", False),
        ("::ffff:10.0.0.5", False),
        ("", False),
        (None, False),
        ("not-an-address", False),
    ],
)
def test_loopback_only_by_default(address, allowed):
    assert metrics.allowed(address) is allowed


def test_the_operator_names_the_networks(settings):
    settings.METRICS_ALLOWED_NETWORKS = ["10.0.0.0/8", "2001:db8::/32", "192.0.2.1"]
    assert metrics.allowed("10.1.2.3")
    assert metrics.allowed("2001:db8::5")
    assert metrics.allowed("192.0.2.1")
    assert not metrics.allowed("192.0.2.2")
    assert not metrics.allowed("127.0.0.1")  # loopback only when listed


@pytest.mark.django_db
def test_requests_are_counted_by_view_and_status(client):
    def count(view: str, status: str) -> float:
        return metrics.REQUESTS.labels(view, status)._value.get()

    me, missing = count("me", "200"), count("config.errors.not_found", "404")
    assert client.get("/api/me/").status_code == 200
    assert client.get("/api/no-such-thing/").status_code == 404  # a route with no name
    assert count("me", "200") == me + 1
    assert count("config.errors.not_found", "404") == missing + 1
