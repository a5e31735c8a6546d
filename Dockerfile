# syntax=docker/dockerfile:1
# The production image: one build, run as web (Daphne), worker, beat and the one-shot
# migrate (docker-compose.yml).  The builder stage compiles what has no wheel (PyICU,
# against the ICU headers); the final stage has the ICU runtime library and no compiler.
# Debian 12 named outright: PyICU links against its ICU (libicu72), which both stages must
# share, and a bare 3.11-slim moves to a newer Debian with another ICU.

FROM python:3.11-slim-bookworm AS builder
# Versions unpinned (DL3008): the Debian release is pinned by the tag, and an exact package
# version disappears from its mirrors with the next security update, failing every build.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ pkg-config libicu-dev nodejs npm \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /build
# The dependencies alone first, so a change to the code reuses this layer (and PyICU's
# build) instead of compiling again: every package at the version and with the hashes of
# the lock file (make lock), nothing resolved here.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
# Pyodide's files with the .br and .gz copies the site serves (as `make pyodide` does).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && python -m servestatic.compress -q node_modules/pyodide
# The FreeCell search compiled with mypyc (scripts/native.py, docs/operations.md), here so
# the compiler stays out of the final image; mypy in a venv of its own, which is not copied
# (the compiled modules need nothing of it at run time).
COPY requirements-native.lock scripts/native.py ./scripts/
COPY games ./games
RUN python -m venv /opt/mypyc \
 && /opt/mypyc/bin/pip install --no-cache-dir --require-hashes -r scripts/requirements-native.lock \
 && /opt/mypyc/bin/python scripts/native.py


FROM python:3.11-slim-bookworm
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libicu72 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 solitaire \
 && useradd --system --uid 10001 --gid solitaire --home-dir /app --no-create-home \
            --shell /usr/sbin/nologin solitaire
COPY --from=builder /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    STATE_DIR=/var/lib/solitaire
WORKDIR /app
# The code runs from this tree (templates, static files and translations beside it), owned
# by root: the server can read it, not change it.
COPY manage.py ./
COPY config ./config
COPY games ./games
COPY --from=builder /build/games/engine/solver/*.so /build/games/engine/solver/native.json ./games/engine/solver/
COPY leaderboards ./leaderboards
COPY frontend ./frontend
COPY --from=builder /build/node_modules/pyodide ./node_modules/pyodide
# The tripwires first: no image is built on a patched library that moved under its patch
# (config/tripwires.py).  Static files collected once, here: hashed names, brotli and gzip (config/static.py), the table's modules bundled by the builder's esbuild, mounted for this command alone (config/bundle.py).  The settings refuse to start without secrets when
# DEBUG is off; throwaway ones for this command alone, never kept in the image.  Compiled
# bytecode too, as the code cannot be written at run time.
RUN --mount=type=bind,from=builder,source=/build/node_modules/@esbuild,target=/app/node_modules/@esbuild \
    python -m config.tripwires \
 && SECRET_KEY=collectstatic-only DAILY_SECRET=collectstatic-only \
    python manage.py collectstatic --noinput -v 0 \
 && python -m compileall -q config games leaderboards frontend \
 && mkdir -p /var/lib/solitaire \
 && chown solitaire:solitaire /var/lib/solitaire
# Numeric, so an orchestrator can tell it is not root without reading /etc/passwd.
USER 10001:10001
EXPOSE 8000
# Daphne on uvloop with a listen backlog for bursts of players (config/serve.py), as
# docker-compose.yml runs it.  --proxy-headers: the client address and scheme come from
# X-Forwarded-For/-Proto, which only the load balancer in front may set (deploy/haproxy.cfg).
CMD ["python", "-m", "config.serve", "-b", "0.0.0.0", "-p", "8000", "--proxy-headers", \
     "config.asgi:application"]
