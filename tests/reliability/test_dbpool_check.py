"""The pool's health check (config/patches/psycopg_pool.py) on a real PostgreSQL connection: it runs on
the first checkout, is skipped for a connection checked a moment ago, and always runs for
one that is closed or after ``DB_CHECK_AFTER_SECONDS``."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import override_settings
from psycopg_pool import ConnectionPool

from config.patches import psycopg_pool as dbpool

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The real checks that ran (each still runs: this only counts them)."""
    ran: list[Any] = []
    real = ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        ran.append(conn)
        real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return ran


@pytest.fixture
def conn(db: Any) -> Any:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    c = psycopg.connect(**params, autocommit=True)
    yield c
    c.close()


def test_a_connection_checked_a_moment_ago_goes_out_unchecked(conn, checks):
    dbpool.check(conn)
    dbpool.check(conn)
    dbpool.check(conn)
    assert checks == [conn]


@override_settings(DB_CHECK_AFTER_SECONDS=0)
def test_with_no_grace_every_checkout_is_checked(conn, checks):
    dbpool.check(conn)
    dbpool.check(conn)
    assert checks == [conn, conn]


def test_a_closed_connection_is_checked_and_refused_even_just_after_a_check(conn, checks):
    dbpool.check(conn)
    conn.close()
    with pytest.raises(psycopg.Error):
        dbpool.check(conn)
    assert len(checks) == 2


def test_a_connection_whose_server_side_died_is_refused_once_the_grace_is_over(conn, checks):
    dbpool.check(conn)
    pid = conn.info.backend_pid
    with psycopg.connect(
        **{
            k: v
            for k, v in connection.get_connection_params().items()
            if k not in ("cursor_factory", "context")
        },
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    with override_settings(DB_CHECK_AFTER_SECONDS=0), pytest.raises(psycopg.Error):
        dbpool.check(conn)
