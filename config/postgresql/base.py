"""Django's PostgreSQL backend, its pool checking connections as ``config.dbpool`` says.

Django hands the pool either psycopg's own check or none (``CONN_HEALTH_CHECKS``) and
refuses another in the pool's options, so the check is set on the pool Django made, once.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from config import dbpool


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool  # type: ignore[misc]  # not in the type stubs
        if pool is not None and getattr(pool, "_check", None) is not dbpool.check:
            moved = "psycopg_pool keeps its callbacks elsewhere now, or Django sets a reset"
            assert hasattr(pool, "_check"), moved
            assert getattr(pool, "_reset", 0) is None, moved
            pool._check = dbpool.check
        return pool
