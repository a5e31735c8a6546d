"""The games' settings: the dailies and their clock, the solver's budgets, hints, dead-end
verdicts, the fair-play review, where moves are written, the tables kept between moves, and
the limits on what one player or socket may ask."""

from __future__ import annotations

import os

from .env import TESTING, env_bool, env_int, env_str

# The daily seeds are derived from this secret: whoever knows it can predict every deal.
DAILY_SECRET = env_str("DAILY_SECRET")
DAILY_TIME_ZONE = env_str("DAILY_TIME_ZONE", "UTC")
# The daily calendar runs this many seconds ahead of the real clock (games/daily/days.py): tests
# that cross a midnight, or a rehearsal of days to come.  Stored times stay real.  0 in use.
DAILY_CLOCK_SHIFT_SECONDS = env_int("DAILY_CLOCK_SHIFT_SECONDS", 0)
DAILY_DAYS_AHEAD = env_int("DAILY_DAYS_AHEAD", 2)
SOLVER_BUDGET_SECONDS = float(env_str("SOLVER_BUDGET_SECONDS", "10"))  # per candidate, ahead
# Solver seconds for one game's "where was it lost?" analysis (games/daily/analysis.py), spent in
# a worker over about a dozen searches.
ANALYSIS_SECONDS = float(env_str("ANALYSIS_SECONDS", "20"))
# A daily missing at request time (the schedule missed it) is certified with a short budget;
# tests skip that so their run time does not depend on the day's deals.
SOLVER_REQUEST_BUDGET_SECONDS = float(env_str("SOLVER_REQUEST_BUDGET_SECONDS", "2"))
DAILY_CERTIFY_ON_DEMAND = env_bool("DAILY_CERTIFY_ON_DEMAND", not TESTING)
# Every hint is searched in a pool of worker processes (games/play/hint_pool.py), at most
# HINT_BUDGET_SECONDS (with its fallback, an answer within the second): HINT_WORKERS of them
# (0: hints are refused, 503), HINT_QUEUE more searches may wait for one (the player who
# used the least solver time first), and each player has HINT_SECONDS_PER_MINUTE of solver
# time a minute (0: no limit; past it 429).  A refused hint is answered after
# HINT_REFUSED_WAIT seconds, so a client looping on refusals asks about once a second.
HINT_BUDGET_SECONDS = float(env_str("HINT_BUDGET_SECONDS", "0.8"))
HINT_WORKERS = env_int("HINT_WORKERS", max(1, (os.cpu_count() or 2) - 1))
HINT_QUEUE = env_int("HINT_QUEUE", 2 * max(1, HINT_WORKERS))
HINT_SECONDS_PER_MINUTE = float(env_str("HINT_SECONDS_PER_MINUTE", "10"))
HINT_REFUSED_WAIT = float(env_str("HINT_REFUSED_WAIT", "1.0"))
# A socket move's dead-end verdict gets DEAD_END_LOOP_MS of the event loop; one that needs
# more is settled in DEAD_END_WORKERS worker processes and sent after the move's answer when
# it is a dead end (games/play/verdicts.py; 0 workers: settled on the loop, however long).
DEAD_END_LOOP_MS = float(env_str("DEAD_END_LOOP_MS", "0.5"))
DEAD_END_WORKERS = env_int("DEAD_END_WORKERS", 1)
# ...after the player has stayed DEAD_END_SETTLE_MS on the position: a search for one the
# player has already left is work for nobody.
DEAD_END_SETTLE_MS = float(env_str("DEAD_END_SETTLE_MS", "150"))
# Solver verdicts on the day's deals, shared in Redis (games/play/analysis_cache.py): each
# entry kept this many days, at most ANALYSIS_CACHE_MAX entries of each kind per daily.
ANALYSIS_CACHE_DAYS = float(env_str("ANALYSIS_CACHE_DAYS", "3"))
ANALYSIS_CACHE_MAX = env_int("ANALYSIS_CACHE_MAX", 200_000)

# Where moves are written (games/play/moves.py): "rows", one row a move; "dual", the legacy
# list of the session too, while the previous release (which reads only that list) still
# serves during a deploy (docs/operations.md, "Upgrading").
MOVE_STORE = env_str("MOVE_STORE", "rows")
if MOVE_STORE not in ("rows", "dual"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"MOVE_STORE is 'rows' or 'dual', not {MOVE_STORE!r}")
# Fair-play review of ranked wins (games/fairplay/review.py, docs/rules.md "Fair play"): a win whose
# signals cross one of these is under review until an operator clears or disqualifies it.
# How they were chosen: docs/rules.md.  Gaps are between two of the player's operations,
# measured by the server; the finish's mechanical moves are left out.
REVIEW = {
    "fast_gap_ms": env_int("REVIEW_FAST_GAP_MS", 150),
    "max_fast_share": float(env_str("REVIEW_MAX_FAST_SHARE", "0.25")),
    "min_median_gap_ms": env_int("REVIEW_MIN_MEDIAN_GAP_MS", 250),
    "min_first_move_ms": env_int("REVIEW_MIN_FIRST_MOVE_MS", 1000),
    "max_line_share": float(env_str("REVIEW_MAX_LINE_SHARE", "0.9")),
}
# For a game with no hidden card, the review also solves from up to REVIEW_SOLVES points of
# a win's path (games/fairplay/line_share.py), each search capped at REVIEW_SOLVE_STATES states: a
# scoring task's cost grows with both (0 solves: the certified line alone).
REVIEW_SOLVES = env_int("REVIEW_SOLVES", 3)
REVIEW_SOLVE_STATES = env_int("REVIEW_SOLVE_STATES", 20_000)
# Megabytes of tables a process keeps between moves, at most (games/play/tables.py).
TABLES_MAX_MB = env_int("TABLES_MAX_MB", 100)

# Rate limits (games/fairplay/ratelimit.py): scope -> (calls, seconds), counted in Redis per player
# (per client address for sign-up/sign-in); 0 turns a limit off.  Generous by default: a
# person playing fast makes a few moves a second.  The test run raises them so hundreds of
# tests from one address are not throttled; the rate-limit tests set their own.
# Every frame a client sends over a socket, whatever its type (games/live/frames.py): this
# many a second on average per socket, this many at once; past that, refused unread.  A
# socket with more than SOCKET_BACKLOG frames waiting (its client does not wait for the
# answers) is closed.
SOCKET_FRAMES_PER_SECOND = env_int("SOCKET_FRAMES_PER_SECOND", 300)
SOCKET_FRAME_BURST = env_int("SOCKET_FRAME_BURST", 600)
SOCKET_BACKLOG = env_int("SOCKET_BACKLOG", 64)
RATE_LIMITS = {
    "sessions": (env_int("RATE_LIMIT_SESSIONS", 3000 if TESTING else 60), 60),
    "moves": (env_int("RATE_LIMIT_MOVES", 30000 if TESTING else 1200), 60),
    "auth": (env_int("RATE_LIMIT_AUTH", 3000 if TESTING else 30), 60),
    # New guests (first visits) per client address; a school or an office behind one
    # address makes a few a minute, a script thousands.
    "guests": (env_int("RATE_LIMIT_GUESTS", 30000 if TESTING else 20), 60),
    # Password-reset mails asked for, per client address and per address written to: each
    # one sends a mail, so this is what keeps the form from mailing someone a flood.
    "resets": (env_int("RATE_LIMIT_RESETS", 3000 if TESTING else 5), 3600),
    # Whole days (open data) and whole games (replays) per player or client address.
    "records": (env_int("RATE_LIMIT_RECORDS", 3000 if TESTING else 30), 60),
    # Mails proving an address (or telling its owner someone gave it), per address written
    # to: the sign-up and email forms answer the same and send nothing past this.
    "account_mails": (env_int("RATE_LIMIT_ACCOUNT_MAILS", 3000 if TESTING else 5), 3600),
}
