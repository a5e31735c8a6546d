"""Daily deals (docs/rules.md, The daily challenge) and the other deals a session can start
from.

Daily seeds come from the engine's HMAC of (date, game, server secret).  When the solver is
installed a daily must be certified winnable; a candidate it refutes or cannot settle is
replaced by the next candidate seed.  Without the solver the deals are stored uncertified.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction

from games.daily.days import day_end
from games.daily.days import today as today  # games.daily.deals.today: the daily calendar's day
from games.engine import DAILY_GAMES, GAMES, daily_seed
from games.engine.commitment import commitment, new_salt
from games.engine.deals import MS_MAX_DEAL
from games.errors import DealError
from games.models import AuditEntry, Deal, GameSession, rows

log = logging.getLogger(__name__)

MAX_CANDIDATES = 50
PUBLIC_ID_MAX = int(Deal._meta.get_field("public_id").max_length or 24)

# certify(date, game, secret, budget=..., max_candidates=...) -> certificate or None; a
# certificate has .seed, .candidate and .par (the solver's games.engine.solver.certify).
Certifier = Callable[..., Any]


def next_opening() -> dt.datetime:
    """When the next day's dailies open: the coming midnight in the configured time zone
    (a day of 23 or 25 hours around a clock change included)."""
    return day_end(today())


def load_certifier() -> Certifier | None:
    """The solver's certification, when the solver package is installed."""
    try:
        from games.engine.solver import certify
    except ImportError:
        return None
    return certify


def ensure_daily(
    game: str,
    date: dt.date,
    certifier: Certifier | None = None,
    budget: float | None = None,
    max_candidates: int = MAX_CANDIDATES,
) -> Deal:
    """The deal of ``game`` on ``date``, created once; safe to call repeatedly."""
    existing = Deal.objects.filter(game=game, date=date).first()
    if existing is not None:
        return existing
    secret = settings.DAILY_SECRET
    seed, candidate, certified, par = daily_seed(date, game, secret, 0), 0, None, None
    line, effort = None, None
    if certifier is not None:
        cert = certifier(
            date,
            game,
            secret,
            budget=budget or settings.SOLVER_BUDGET_SECONDS,
            max_candidates=max_candidates,
        )
        if cert is not None:
            seed, candidate, certified, par = cert.seed, cert.candidate, True, cert.par
            line, effort = list(cert.moves), getattr(cert, "states", None) or None
        else:
            log.error(
                "no certified %s deal for %s in %d candidates: publishing candidate 0 uncertified",
                game,
                date,
                max_candidates,
            )
            certified = False
    try:
        with transaction.atomic():
            # A random deal may already hold this seed; it becomes the daily.
            deal, created = Deal.objects.get_or_create(game=game, seed=seed)
            if not created and deal.date is not None and deal.date != date:
                raise IntegrityError("seed already used by another day")
            deal.date, deal.candidate, deal.certified, deal.par = date, candidate, certified, par
            deal.effort = effort
            # Committed to now, days before the day opens; revealed when it closes.
            deal.line, deal.salt = line, new_salt()
            deal.commitment = commitment(game, date, seed, deal.salt)
            deal.save()
            return deal
    except IntegrityError:
        # Another process created it in the meantime.
        return Deal.objects.get(game=game, date=date)


def replace_daily(
    game: str, date: dt.date, actor: Any, reason: str, certifier: Certifier | None = None
) -> Deal:
    """A new deal for a daily whose day has not opened, with a new seed (the next
    candidates), salt and commitment, published at once; the one it replaces is deleted
    (no one has played it: its day has not opened).  Audited with both commitments, so the
    trail shows that a published commitment was withdrawn, when and why.  A daily whose day
    has opened is never replaced: its players' games are on it."""
    reason = reason.strip()
    if not reason:
        raise DealError("replacing a daily needs a reason (kept in the audit trail)")
    if date <= today():
        raise DealError(f"the {game} daily of {date} has opened: it cannot be replaced")
    old = Deal.objects.filter(game=game, date=date).first()
    if old is None:
        raise DealError(f"there is no {game} daily on {date} to replace")
    secret, first = settings.DAILY_SECRET, old.candidate + 1
    seed, candidate, certified, par, line, effort = (
        daily_seed(date, game, secret, first),
        first,
        None,
        None,
        None,
        None,
    )
    if certifier is not None:
        cert = certifier(
            date,
            game,
            secret,
            budget=settings.SOLVER_BUDGET_SECONDS,
            max_candidates=MAX_CANDIDATES,
            first_candidate=first,
        )
        if cert is None:
            raise DealError(
                f"no certified {game} deal among candidates {first} to "
                f"{first + MAX_CANDIDATES - 1}: the daily is kept"
            )
        seed, candidate, certified, par = cert.seed, cert.candidate, True, cert.par
        line, effort = list(cert.moves), getattr(cert, "states", None) or None
    with transaction.atomic():
        old = Deal.objects.select_for_update().get(pk=old.pk)
        if GameSession.objects.filter(deal=old).exists():
            raise DealError(f"the {game} daily of {date} has been played: it cannot be replaced")
        salt = new_salt()
        new = Deal(
            game=game,
            date=date,
            seed=seed,
            candidate=candidate,
            certified=certified,
            par=par,
            effort=effort,
            line=line,
            salt=salt,
            commitment=commitment(game, date, seed, salt),
        )
        AuditEntry.objects.create(
            actor=actor,
            action="deal_replaced",
            reason=reason,
            data={
                "game": game,
                "date": date.isoformat(),
                "withdrawn": {"commitment": old.commitment, "candidate": old.candidate},
                "published": {"commitment": new.commitment, "candidate": candidate},
            },
        )
        old._replacing = True  # type: ignore[attr-defined]  # the one way a committed deal goes
        old.delete()
        new.save()
    log.warning("%s daily of %s replaced by %s: %s", game, date, actor, reason)
    return new


def todays_deal(game: str) -> Deal:
    """Today's deal for a request.  Normally made ahead by the scheduled task; if it is
    missing, it is made now with a short solver budget so that no request waits long."""
    certifier = load_certifier() if settings.DAILY_CERTIFY_ON_DEMAND else None
    return ensure_daily(
        game, today(), certifier, budget=settings.SOLVER_REQUEST_BUDGET_SECONDS, max_candidates=3
    )


def ensure_dailies(start: dt.date | None = None, days: int = 1) -> list[Deal]:
    start = start or today()
    certifier = load_certifier()
    return [
        ensure_daily(game, start + dt.timedelta(days=offset), certifier)
        for offset in range(days)
        for game in DAILY_GAMES
    ]


def deal_for_request(game: str, spec: object) -> Deal:
    """The deal a new session starts from: ``daily``, ``random``, a FreeCell deal number,
    or the public id of a deal already played."""
    if game not in GAMES:
        raise DealError(f"unknown game; games: {', '.join(GAMES)}")
    if isinstance(spec, str) and len(spec) > PUBLIC_ID_MAX:
        # Refused unread and unquoted: the answer goes back to whoever sent it, at any size.
        raise DealError(
            f"a deal id has at most {PUBLIC_ID_MAX} characters; use 'daily', "
            "'random', a FreeCell deal number or a deal id"
        )
    if spec is None or spec == "daily":
        if game not in DAILY_GAMES:
            raise DealError(f"{game} has no daily deal; daily games: {', '.join(DAILY_GAMES)}")
        return todays_deal(game)
    if spec == "random":
        if GAMES[game].public_deal_numbers:  # a FreeCell number: it may have a deal already
            return _deal_for_seed(game, GAMES[game].random_seed(), fresh=True)
        # A fresh 256-bit seed no deal has (docs/deals.md): one INSERT, no lookup first.
        return deal_row(game, GAMES[game].random_seed(), fresh=True)
    if isinstance(spec, bool):
        raise DealError("deal must be 'daily', 'random', a FreeCell deal number or a deal id")
    # isascii: str.isdigit also takes digits int() refuses, such as "²".
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isascii() and spec.isdigit()):
        if not GAMES[game].public_deal_numbers:
            raise DealError("deal numbers exist only for FreeCell; use 'daily' or 'random'")
        number = int(spec)
        if not 1 <= number <= MS_MAX_DEAL:
            raise DealError(f"FreeCell deal numbers run from 1 to {MS_MAX_DEAL}")
        return _deal_for_seed(game, number)
    if isinstance(spec, str):
        deal = Deal.objects.filter(public_id=spec).first()
        if deal is None:
            raise DealError(f"there is no deal {spec!r}")
        if deal.game != game:
            raise DealError(f"deal {spec!r} is a {deal.game} deal, not {game}")
        return opened(deal)
    raise DealError("deal must be 'daily', 'random', a FreeCell deal number or a deal id")


# The lookup every new FreeCell deal makes, written once: the ORM built the same query
# anew each time (its ordering, which one row does not need, and every column's compile
# cost about a millisecond, a sixth of starting a session; bench/http_cost.py).  The
# solver's line, which can be long, is left unread (deferred) until asked for.
_DEAL_FIELDS = [f for f in Deal._meta.concrete_fields if f.name != "line"]
_DEAL_BY_SEED = "SELECT {} FROM {} WHERE game = %s AND seed = %s".format(
    ", ".join(f.column for f in _DEAL_FIELDS), Deal._meta.db_table
)
_DEAL_NAMES = [f.attname for f in _DEAL_FIELDS]
# Each column's conversion as the ORM applies it (the seed's text to an int), found once.
_DEAL_CONVERTERS = [getattr(f, "from_db_value", None) for f in _DEAL_FIELDS]


# A seed's deal by one statement (PostgreSQL): inserted if the seed has none, and read back
# as _find reads it, or else the row already there (the UNION's second half: the INSERT's
# own row is not visible to the statement's SELECT, the committed one is).  FreeCell deals
# come from 32,000 numbers, so after a while a random one has its deal already: inserting
# first and then looking up took two round trips for it, this one.  It returns nothing
# only when another request's INSERT of the seed had not committed when it began.
_NEW_FIELDS = rows.fields(Deal, pk=False)
_DEAL_COLUMNS = ", ".join(f.column for f in _DEAL_FIELDS)
# The two common table expressions, ``seeded`` being the seed's row; games/play/fresh.py
# starts a random deal's session in the same statement.  Parameters: seed_params().
SEEDED = (
    "made AS (INSERT INTO {table} ({new}) VALUES ({values}) "
    "ON CONFLICT (game, seed) DO NOTHING RETURNING {cols}), "
    "seeded AS (SELECT {cols} FROM made UNION ALL "
    "(SELECT {cols} FROM {table} WHERE game = %s AND seed = %s) LIMIT 1)"
).format(
    table=Deal._meta.db_table,
    new=", ".join(f.column for f in _NEW_FIELDS),
    values=", ".join(["%s"] * len(_NEW_FIELDS)),
    cols=_DEAL_COLUMNS,
)
SEEDED_COLUMNS = ", ".join(f"seeded.{f.column}" for f in _DEAL_FIELDS)
_DEAL_INSERT = f"WITH {SEEDED} SELECT {SEEDED_COLUMNS} FROM seeded"


def seed_params(deal: Deal, db: Any) -> list[Any]:
    """SEEDED's parameters for ``deal`` (unsaved: its game and seed): the new row's values
    (the ORM's own), then the lookup's."""
    return [*rows.values(deal, _NEW_FIELDS, db), deal.game, str(deal.seed)]


def read_deal(db: Any, row: Any) -> Deal | None:
    """A Deal from the values of SEEDED_COLUMNS (or _DEAL_BY_SEED's); None for no row."""
    if row is None:
        return None
    values = [
        v if convert is None else convert(v, None, db)
        for convert, v in zip(_DEAL_CONVERTERS, row, strict=True)
    ]
    return Deal.from_db(DEFAULT_DB_ALIAS, _DEAL_NAMES, values)


def _find(game: str, seed: int) -> Deal | None:
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        cursor.execute(_DEAL_BY_SEED, [game, str(seed)])
        return read_deal(db, cursor.fetchone())


def _insert(game: str, seed: int) -> Deal | None:
    """The seed's deal, made if it had none; None when another request is making it (or
    an IntegrityError, under SQLite)."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":  # SQLite (make run): the ORM's INSERT
        return Deal.objects.create(game=game, seed=seed)
    with db.cursor() as cursor:
        cursor.execute(_DEAL_INSERT, seed_params(Deal(game=game, seed=seed), db))
        return read_deal(db, cursor.fetchone())


def deal_row(game: str, seed: int, fresh: bool = False) -> Deal:
    """The deal of this seed, made if no one has played it yet (two requests may race to).
    ``fresh``: a seed just drawn at random, so the one statement that inserts it or reads
    the row already there runs first (one round trip where find-then-insert took two), and
    the lookup only if another request was inserting it at that moment.  Each statement
    runs on its own, not in a transaction (which cost two more round trips); in autocommit
    a refused INSERT leaves nothing to roll back, so a savepoint is taken only inside a
    caller's transaction."""
    deal = None if fresh else _find(game, seed)
    if deal is None:
        inside = transaction.get_connection().in_atomic_block
        try:
            with transaction.atomic() if inside else contextlib.nullcontext():
                deal = _insert(game, seed)
        except IntegrityError:  # made by another request meanwhile
            deal = None
        if deal is None:
            deal = _find(game, seed)
            assert deal is not None
    return deal


def _deal_for_seed(game: str, seed: int, fresh: bool = False) -> Deal:
    return opened(deal_row(game, seed, fresh))


def opened(deal: Deal) -> Deal:
    """A daily whose day has not opened yet is nobody's to play, by any route (its id, its
    FreeCell number): only its commitment is public before the day."""
    if deal.date is not None and deal.date > today():
        raise DealError("that deal is not available yet")
    return deal


def public_record(deal: Deal) -> dict[str, Any]:
    """What anyone may know of a daily now (docs/deals.md, "Commit, then reveal"): its
    commitment always; its public id once its day has opened; its seed and salt once the
    day is closed and revealed."""
    assert deal.date is not None
    out: dict[str, Any] = {
        "game": deal.game,
        "date": deal.date.isoformat(),
        "commitment": deal.commitment,
    }
    if deal.date <= today():
        out["deal"] = deal.public_id
    if deal.revealed_at is not None:
        out.update(seed=str(deal.seed), salt=deal.salt, revealed_at=deal.revealed_at.isoformat())
    return out


def days_record(first: dt.date, last: dt.date) -> list[dict[str, Any]]:
    """The public records of the dailies from ``first`` to ``last``, by day then game."""
    order = {game: i for i, game in enumerate(DAILY_GAMES)}
    deals = Deal.objects.filter(date__gte=first, date__lte=last)
    return [public_record(d) for d in sorted(deals, key=lambda d: (d.date, order.get(d.game, 99)))]
