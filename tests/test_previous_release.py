"""The release still serving works on the newest schema: ``migrate`` runs before the old
replicas are replaced (docs/operations.md, "Migrations under the running release").

The previous release's code (``deploy/previous-release``: the commit of the release in
production, moved on when a release ships) is taken from git history, a database is
migrated by this checkout, and the old code, pointed at it, starts a game and plays moves
over the API; then this release reads that game and plays on.  It fails for a NOT NULL
column without a database default (the old INSERTs leave it out), a renamed or dropped
column, a table the old code needs gone, or a constraint the old writes break."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = (ROOT / "deploy" / "previous-release").read_text().strip()

OLD_CLIENT = r"""
import json, django
django.setup()
from django.test import Client
c = Client()
me = c.get("/api/me/").json()
out = {}
for game, deal in (("freecell", 617), ("klondike", "random"), ("freecell", "daily")):
    r = c.post("/api/sessions/", {"game": game, "deal": deal}, content_type="application/json")
    assert r.status_code == 201, (game, r.status_code, r.content[:300])
    s = r.json()
    seq = 0
    for _ in range(3):
        move = s["legal_moves"][0]["move"]
        r = c.post(f"/api/sessions/{s['id']}/moves/", {"seq": seq, "move": move, "op": f"o{seq}"},
                   content_type="application/json")
        assert r.status_code == 200, (game, r.status_code, r.content[:300])
        s, seq = r.json(), seq + 1
    out[game + str(deal)] = {"id": s["id"], "seq": s["seq"], "cards_up": s["cards_up"]}
print(json.dumps(out))
"""


def _old_tree(tmp: Path) -> Path:
    if (
        subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{PREVIOUS}^{{commit}}"],
            capture_output=True,
        ).returncode
        != 0
    ):
        pytest.fail(
            f"the previous release {PREVIOUS[:12]} is not in this clone's history: "
            "clone with full history (not --depth) to run this test"
        )
    archive = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "archive",
            PREVIOUS,
            "config",
            "games",
            "leaderboards",
            "frontend",
            "manage.py",
        ],
        capture_output=True,
        check=True,
    ).stdout
    tree = tmp / "previous"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


@pytest.mark.django_db(transaction=True)
def test_the_previous_release_plays_on_the_newest_schema(tmp_path):
    name = f"prev_release_{uuid.uuid4().hex[:8]}"
    admin = "postgres://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = f"postgres://postgres@127.0.0.1:5432/{name}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        DATABASE_URL=url,
        DEBUG="1",
        SECRET_KEY="prev-" + "x" * 40,
        DAILY_SECRET="prev",
        REDIS_KEY_PREFIX=f"prev-{uuid.uuid4().hex[:8]}",
        DJANGO_SETTINGS_MODULE="config.settings",
        DAILY_CERTIFY_ON_DEMAND="0",
        CELERY_TASK_ALWAYS_EAGER="1",
        PYTHONPATH="",
    )
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        old = _old_tree(tmp_path)
        ran = subprocess.run(
            [sys.executable, "-c", OLD_CLIENT],
            cwd=old,
            env={**env, "PYTHONPATH": str(old)},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert ran.returncode == 0, ran.stderr[-3000:]
        import json

        played = json.loads(ran.stdout.strip().splitlines()[-1])
        # This release reads the old release's games and plays on.
        check = subprocess.run(
            [sys.executable, "-c", NEW_CHECK, json.dumps(played)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert check.returncode == 0, check.stderr[-3000:]
        assert check.stdout.strip().splitlines()[-1] == "ok"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


NEW_CHECK = r"""
import json, sys, django
django.setup()
from games.engine import replay
from games.models import GameSession
from games.play import operations
played = json.loads(sys.argv[1])
for key, p in played.items():
    s = GameSession.objects.select_related("deal", "player").get(pk=p["id"])
    assert s.seq == p["seq"] == 3 and len(s.moves) == 3, (key, s.seq, s.moves)
    assert replay(s.game, s.deal.seed, s.tokens).cards_up == p["cards_up"]
    repeat = operations.play_move(s.pk, s.player, 2, s.tokens[2], "o2")
    assert repeat.repeated, key
    g = replay(s.game, s.deal.seed, s.tokens)
    move = g.notation(next(iter(g.legal_moves())))
    out = operations.play_move(s.pk, s.player, 3, move, "n3")
    assert out.session.seq == 4, key
    again = GameSession.objects.get(pk=p["id"])
    assert [m[0] for m in again.moves][:3] == s.tokens and len(again.moves) == 4
print("ok")
"""
