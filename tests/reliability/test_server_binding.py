"""Statements bound and prepared on the server (config/settings/services.py, DB_SERVER_BINDING), on
a real PostgreSQL connection from the pool: parameters travel beside the statement, and a
statement run five times on a connection is prepared there (pg_prepared_statements)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.backends.postgresql.base import ServerBindingCursor

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only"),
]


def test_django_cursors_bind_on_the_server():
    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, ServerBindingCursor)
        # A parameter sent apart keeps its text as it is: nothing is quoted into the SQL.
        cursor.execute("SELECT %s::text", ["it's; DROP TABLE x --"])
        assert cursor.fetchone() == ("it's; DROP TABLE x --",)


def test_a_statement_run_five_times_is_prepared_on_its_connection():
    sql = "SELECT %s::int + 41"
    with connection.cursor() as cursor:
        for n in range(6):
            cursor.execute(sql, [n])
            assert cursor.fetchone() == (n + 41,)
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements "
            "WHERE statement LIKE 'SELECT $1::int + 41%%'"
        )
        assert cursor.fetchone() == (1,)
