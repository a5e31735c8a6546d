"""Django's PostgreSQL backend with the pool's health check of config/patches/psycopg_pool.py."""
