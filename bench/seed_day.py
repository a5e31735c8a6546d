"""A day of ranked sessions at volume, for the close and board benchmarks (bench/close_day.py,
bench/boards.py): realistic rows, written by the database itself.

Each game's move lists are real: the day's certified deal gives the solver's winning line,
and random walks over the engine's legal moves give unfinished games of 10 to 200 moves.
Each session takes one of those lists, re-timed (its own start in the day, its own pace), so
its moves are what the site stores: ``[token, server time in ms]`` with the real tokens of
that deal.  The rows themselves are made by ``INSERT ... SELECT FROM generate_series`` in
the database, in slices on two connections at once: a million sessions in a minute or two,
where building them in Python and sending them would take many times that.

Where moves have rows of their own (``games_move``), the sessions' lists are empty, as the
site writes them, and only the moves a close reads are stored as rows (those of the wins it
reviews), unless ``all_moves``: a row a move for every session, a hundred million rows for
a million sessions, which no step of the close or of the boards reads.  On a schema from
before the rows (``--code`` of bench/close_day.py) the moves go in the session's list.

The mix of a day, per 10,000 ranked sessions (``MIX``): wins already scored (their entries
written by the scoring task during the day), a few wins whose scoring has not run at
midnight, resigned attempts, attempts still open at midnight, attempts never started (the
deal shown, no move), disqualified wins; and beside them practice games on the same deals
(replays after a resignation), which the close must leave alone.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

# Share of each game in a day's sessions, out of 100.
GAMES = {"klondike": 35, "klondike-draw3": 15, "freecell": 25, "whitehorse": 10, "bakers-dozen": 15}
# Kinds of ranked session, out of 10,000.
MIX = {
    "won": 4000,
    "won_unscored": 2,
    "won_disqualified": 8,
    "resigned": 2200,
    "playing": 3490,
    "not_started": 300,
}
PRACTICE_SHARE = 0.05  # practice sessions on the day's deals, beside the ranked ones
WALKS = 24  # unfinished move lists per game
SLICES = 8


def _kinds() -> list[tuple[str, int, int]]:
    """(kind, low, high) buckets of 0..9999."""
    out, low = [], 0
    for kind, share in MIX.items():
        out.append((kind, low, low + share))
        low += share
    assert low == 10_000
    return out


def walk(game: str, seed: int, length: int, rng: random.Random) -> tuple[list[str], Any]:
    """A random walk of legal moves on a deal: an unfinished game as a person might leave
    it (a move to the foundation taken when there is one, else any legal move)."""
    from games.engine import new_game

    g = new_game(game, seed)
    tokens: list[str] = []
    for _ in range(length):
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        home = [m for m in moves if g.notation(m).endswith("h") or "h" in g.notation(m)[1:2]]
        move = rng.choice(home) if home and rng.random() < 0.7 else rng.choice(moves)
        token = g.notation(move)
        g.play(token)
        tokens.append(token)
    return tokens, g


def templates(deals: dict[str, Any], rng: random.Random) -> list[tuple[Any, ...]]:
    """(game, tid, won, tokens, offsets in ms from the first move, cards_up, moves, score)."""
    from games.engine import replay

    out = []
    for game, deal in deals.items():
        lists: list[tuple[bool, list[str], Any]] = []
        if deal.line:
            lists.append((True, list(deal.line), replay(game, deal.seed, list(deal.line))))
        for _ in range(WALKS):
            tokens, g = walk(game, deal.seed, rng.randint(10, 200), rng)
            lists.append((bool(g.won), tokens, g))
        for tid, (won, tokens, g) in enumerate(lists):
            at, offsets = 0, []
            for _ in tokens:
                offsets.append(at)
                at += int(rng.lognormvariate(0, 0.6) * 1800)  # a person's think times
            out.append(
                (
                    game,
                    tid,
                    won,
                    tokens,
                    offsets,
                    g.cards_up,
                    g.moves,
                    g.score if g.has_score else None,
                )
            )
    return out


def _slice_sql(day_start_ms: int, games: dict[str, int]) -> str:
    """One slice of sessions: %(lo)s to %(hi)s, each of a kind and a game by a hash of its
    number, with a move list from its game's templates, re-timed."""
    kind_case = " ".join(f"WHEN b.k < {hi} THEN '{kind}'" for kind, _, hi in _kinds())
    game_case, low = [], 0
    for game, share in games.items():
        low += share
        game_case.append(f"WHEN b.g < {low} THEN '{game}'")
    assert low == 100
    return f"""
WITH base AS (
  SELECT i, abs(hashint8(i)) %% 10000 AS k, abs(hashint8(i * 7 + 3)) %% 100 AS g,
         abs(hashint8(i * 13 + 5)) AS h
  FROM generate_series(%(lo)s::bigint, %(hi)s::bigint - 1) AS i
), kinded AS (
  SELECT b.i, b.h, CASE WHEN b.i >= %(ranked)s THEN 'practice' {kind_case} END AS kind,
         CASE {" ".join(game_case)} END AS game
  FROM base b
), picked AS (
  SELECT k.*, t.tokens, t.offsets, t.cards_up, t.n_moves, t.score,
         -- the day's second the deal was shown, the first look, the player's pace
         {day_start_ms} + (k.h %% 86000) * 1000 AS shown_ms,
         2000 + (k.h / 86000) %% 20000 AS first_ms,
         0.5 + ((k.h / 7) %% 100) / 80.0::float8 AS pace
  FROM kinded k JOIN bench_template t ON t.game = k.game AND t.tid = CASE
    WHEN k.kind IN ('won', 'won_unscored', 'won_disqualified') THEN 0
    ELSE 1 + k.h %% {WALKS} END
), timed AS (
  -- Built as text and parsed once: three times quicker than jsonb_agg of jsonb_build_array
  -- (the tokens need no escaping: letters and digits).
  SELECT p.*, CASE WHEN p.kind = 'not_started' THEN '[]'::jsonb
                   WHEN %(rows)s AND NOT %(all_rows)s AND p.kind <> 'won_unscored' THEN NULL
                   ELSE ('[' || (
           SELECT string_agg('["' || u.tok || '",' || (p.shown_ms + p.first_ms
                                                      + (u.o * p.pace)::bigint) || ']', ',')
           FROM unnest(p.tokens, p.offsets) AS u(tok, o)) || ']')::jsonb END AS mv,
         p.offsets[array_length(p.offsets, 1)] AS last_off
  FROM picked p
), stored AS (
INSERT INTO games_gamesession (id, player_id, deal_id, game, ranked, status, moves, seq,
  score, cards_up, move_count, undo_count, hint_count, created_at, started_at, finished_at,
  time_ms, active_ms, client_key, device_key, offline_id, verified, review, review_reasons,
  signals, disqualified, disqualified_reason, analysis)
SELECT md5('bench-session-' || %(day)s::text || '-' || x.i)::uuid, %(player0)s + x.i, d.id,
  x.game,
  x.kind <> 'practice',
  CASE WHEN x.kind LIKE 'won%%' THEN 'won' WHEN x.kind = 'resigned' THEN 'resigned'
       WHEN x.kind = 'practice' AND x.h %% 2 = 0 THEN 'resigned' ELSE 'playing' END,
  CASE WHEN %(rows)s THEN '[]'::jsonb ELSE x.mv END,
  CASE WHEN x.kind = 'not_started' THEN 0 ELSE array_length(x.tokens, 1) END,
  CASE WHEN x.kind = 'not_started' THEN NULL ELSE x.score END,
  CASE WHEN x.kind = 'not_started' THEN 0 ELSE x.cards_up END,
  CASE WHEN x.kind = 'not_started' THEN 0 ELSE x.n_moves END, 0, 0,
  to_timestamp(x.shown_ms / 1000.0),
  CASE WHEN x.kind = 'not_started' THEN NULL
       ELSE to_timestamp((x.shown_ms + x.first_ms) / 1000.0) END,
  CASE WHEN x.kind LIKE 'won%%' OR x.kind = 'resigned' THEN
       to_timestamp((x.shown_ms + x.first_ms + (x.last_off * x.pace)::bigint) / 1000.0) END,
  CASE WHEN x.kind LIKE 'won%%' THEN x.first_ms + (x.last_off * x.pace)::bigint END,
  CASE WHEN x.kind LIKE 'won%%' THEN x.first_ms + (x.last_off * x.pace)::bigint END,
  substr(md5('c' || x.i), 1, 32), substr(md5('d' || x.i), 1, 32), '',
  CASE WHEN x.kind IN ('won', 'won_disqualified') THEN TRUE END,
  CASE WHEN x.kind = 'won_disqualified' THEN 'disqualified' ELSE '' END,
  '[]'::jsonb, '{{}}'::jsonb, x.kind = 'won_disqualified',
  CASE WHEN x.kind = 'won_disqualified' THEN 'bench: scripted' ELSE '' END, NULL
FROM timed x JOIN games_deal d ON d.game = x.game AND d.date = %(day)s
RETURNING 1
)
-- Moves stored as rows (games_move, the store since moves have rows of their own).
INSERT INTO games_move (session_id, seq, token, at_ms, op)
SELECT md5('bench-session-' || %(day)s::text || '-' || x.i)::uuid, m.n - 1, m.move ->> 0,
  (m.move ->> 1)::bigint, NULL
FROM timed x, jsonb_array_elements(x.mv) WITH ORDINALITY AS m(move, n)
WHERE %(rows)s AND x.mv IS NOT NULL AND (SELECT count(*) FROM stored) >= 0
"""


def seed(
    connection_url: str,
    day: dt.date,
    sessions: int,
    say: Callable[[str], None],
    rng_seed: int = 2026,
    games: dict[str, int] | None = None,
    all_moves: bool = False,
) -> dict[str, float]:
    """Seed ``sessions`` ranked sessions (and practice beside them) on ``day``'s deals, which
    must exist with their lines (``games.daily.deals.ensure_daily``), shared among ``games`` (out
    of 100; GAMES by default).  Runs in the Django process for the templates, then on raw
    connections for the rows.  Returns phase seconds."""
    games = games or GAMES
    import psycopg

    from games.daily.days import day_start
    from games.engine import DAILY_GAMES
    from games.models import Deal
    from leaderboards.keys import sort_key_sql

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    deals = {d.game: d for d in Deal.objects.filter(date=day, game__in=DAILY_GAMES)}
    deals = {g: d for g, d in deals.items() if g in games}
    missing = [g for g in games if g not in deals or not deals[g].line]
    if missing:
        raise SystemExit(
            f"no certified deal of {', '.join(missing)} on {day}: make them "
            "first (ensure_daily with the solver)"
        )
    rows = templates(deals, random.Random(rng_seed))
    practice = int(sessions * PRACTICE_SHARE)
    total = sessions + practice
    with psycopg.connect(connection_url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_template")
        conn.execute(
            "CREATE UNLOGGED TABLE bench_template (game text, tid int, won bool, "
            "tokens text[], offsets bigint[], cards_up int, n_moves int, score int)"
        )
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO bench_template VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", rows
            )
        # Moves as rows (games_move) where the schema has them, else in the session's list.
        as_rows = bool(conn.execute("SELECT to_regclass('games_move') IS NOT NULL").fetchone()[0])
        # The players after every one there (another day seeded before this one).
        player0 = int(
            conn.execute("SELECT COALESCE(max(id), 0) + 1 FROM games_player").fetchone()[0]
        )
    timings["templates"] = time.perf_counter() - t0
    say(f"seed: {len(rows)} move lists from the day's deals in {timings['templates']:.1f} s")

    def players(lo: int, hi: int) -> None:
        with psycopg.connect(connection_url, autocommit=True) as c:
            # name_key as games.accounts.names.name_key makes it for these names (digits
            # 0 and 1 read as the letters o and l), so the admin's name search finds them.
            c.execute(
                "INSERT INTO games_player (id, display_name, name_key, created_at, "
                "anonymous, hide_from_race) SELECT %(p)s + i, 'Bench player ' || "
                "(%(p)s + i), 'benchplayer' || translate((%(p)s + i)::text, '01', 'ol'), "
                "now(), i %% 50 = 0, FALSE FROM generate_series(%(lo)s::bigint, "
                "%(hi)s::bigint - 1) i",
                {"p": player0, "lo": lo, "hi": hi},
            )

    sql = _slice_sql(int(day_start(day).timestamp() * 1000), games)

    def slice_(lo: int, hi: int) -> None:
        with psycopg.connect(connection_url, autocommit=True) as c:
            c.execute("SET synchronous_commit = off")
            c.execute(
                sql,
                {
                    "lo": lo,
                    "hi": hi,
                    "ranked": sessions,
                    "player0": player0,
                    "day": day,
                    "rows": as_rows,
                    "all_rows": all_moves,
                },
            )

    # Loaded without the secondary indexes, which are built once at the end (as quick
    # again as updating them row by row); the day ends with the indexes it would have.
    with psycopg.connect(connection_url, autocommit=True) as conn:
        indexes = conn.execute(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename IN "
            "('games_gamesession', 'leaderboards_entry') AND NOT EXISTS (SELECT 1 FROM "
            "pg_constraint c WHERE c.conname = i.indexname)"
        ).fetchall()
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
    step = max(1, -(-total // SLICES))
    bounds = [(lo, min(total, lo + step)) for lo in range(0, total, step)]
    t = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda b: players(*b), bounds))
    with psycopg.connect(connection_url, autocommit=True) as conn:
        conn.execute(
            "SELECT setval(pg_get_serial_sequence('games_player', 'id'), "
            "(SELECT max(id) FROM games_player))"
        )
    timings["players"] = time.perf_counter() - t
    say(f"seed: {total} players in {timings['players']:.1f} s")
    t = time.perf_counter()
    done = [0]

    def run(b: tuple[int, int]) -> None:
        slice_(*b)
        done[0] += b[1] - b[0]
        say(f"seed: {done[0]}/{total} sessions ({time.perf_counter() - t:.0f} s)")

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(run, bounds))
    timings["sessions"] = time.perf_counter() - t
    t = time.perf_counter()
    # The scoring task's entries for the day's wins (all but the few still queued).
    by_game = []
    for game in games:
        key = sort_key_sql(game, "TRUE", "s.score", "s.time_ms", "s.move_count", "s.cards_up")
        by_game.append(f"WHEN '{game}' THEN {key}")
    with psycopg.connect(connection_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO leaderboards_entry (session_id, player_id, game, date, won, score, "
            "time_ms, moves, cards_up, undos, hints, active_ms, verified, review, clean_win, "
            f"sort_key, scored_at) SELECT s.id, s.player_id, s.game, %(day)s, TRUE, s.score, "
            "s.time_ms, s.move_count, s.cards_up, 0, 0, s.active_ms, s.verified, s.review, "
            f"TRUE, CASE s.game {' '.join(by_game)} END, s.finished_at "
            "FROM games_gamesession s JOIN games_deal d ON d.id = s.deal_id "
            "WHERE d.date = %(day)s AND s.ranked AND s.status = 'won' AND s.verified "
            "IS NOT NULL",
            {"day": day},
        )
        timings["entries"] = time.perf_counter() - t
        say(f"seed: the scored wins' entries in {timings['entries']:.1f} s")
        t = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '256MB'")
        for _, definition in indexes:
            conn.execute(definition)
        timings["indexes"] = time.perf_counter() - t
        say(f"seed: {len(indexes)} indexes built in {timings['indexes']:.1f} s")
        t = time.perf_counter()
        # What autovacuum would have done over the day.
        conn.execute("VACUUM ANALYZE games_player")
        conn.execute("VACUUM ANALYZE games_gamesession")
        conn.execute("VACUUM ANALYZE leaderboards_entry")
        conn.execute("DROP TABLE bench_template")
    timings["vacuum"] = time.perf_counter() - t
    say(f"seed: vacuum and analyze in {timings['vacuum']:.1f} s")
    return timings
