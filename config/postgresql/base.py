"""Django's PostgreSQL backend, its pool checking connections as config/patches/psycopg_pool.py
says (the settings name this backend only with that patch on)."""

from config.patches.psycopg_pool import DatabaseWrapper

__all__ = ["DatabaseWrapper"]
