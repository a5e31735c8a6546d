"""A guest joining an account (signing in on a browser that played as a guest).

Everything the guest had goes to the account: its sessions, its leaderboard entries (so
every win stays on the daily, week and all-time boards) and so its statistics.  One rule
keeps the daily fair: a person has one ranked attempt per daily.  When both players hold
one at the same daily, the attempt *started first* stays ranked and the other becomes
practice, whatever their results, so nobody can keep a spare attempt aside and pick the
better of two after the fact.  "Started" is the first move (an attempt never played counts
after any played one): that is when the player first acted on the deal.

Both player rows are locked, always in the same order, for the whole merge: a session start
(``operations.start_session`` locks its player row) or a second sign-in racing the merge
either finishes before it, and is merged, or runs after it and sees the merged guest.  The
guest's row is kept, marked ``merged_into``, so a request still carrying the guest's old
browser session gets a clear answer instead of a broken foreign key.
"""

from __future__ import annotations

import datetime as dt
from functools import partial

from django.db import transaction

from games import signals
from games.accounts import player_cache
from games.fairplay.review import review
from games.models import AuditEntry, GameSession, Player


def _first_started(a: GameSession, b: GameSession) -> tuple[GameSession, GameSession]:
    """(kept, demoted): the attempt whose first move came first, then the one made first."""
    never = dt.datetime.max.replace(tzinfo=dt.UTC)

    def key(s: GameSession) -> tuple[dt.datetime, dt.datetime, str]:
        return (s.started_at or never, s.created_at, str(s.pk))

    return (a, b) if key(a) <= key(b) else (b, a)


def _overlapped(kept: GameSession, other: GameSession) -> bool:
    """Was the kept attempt still being played after the other one began?  Then what one
    showed may have helped the other: an operator should be able to see it."""
    if kept.started_at is None or other.started_at is None:
        return False
    ended = kept.finished_at
    return ended is None or ended > other.started_at


def adopt_guest(account: Player, guest: Player) -> list[str]:
    """Merge ``guest`` into ``account``; the ids of the sessions that stopped being ranked.
    Safe to call twice (a guest already merged is left alone)."""
    with transaction.atomic():
        rows = {
            p.pk: p
            for p in Player.objects.select_for_update()
            .filter(pk__in=[account.pk, guest.pk])
            .order_by("pk")
        }
        guest_row = rows.get(guest.pk)
        if guest_row is None or guest_row.merged_into_id is not None or account.pk not in rows:
            return []
        mine = {
            s.deal_id: s
            for s in GameSession.objects.select_for_update().filter(player=account, ranked=True)
        }
        demoted: list[GameSession] = []
        kept_of: list[GameSession] = []
        for theirs in GameSession.objects.select_for_update().filter(player=guest, ranked=True):
            ours = mine.get(theirs.deal_id)
            if ours is None:
                continue
            kept, loser = _first_started(ours, theirs)
            demoted.append(loser)
            kept_of.append(kept)
            if _overlapped(kept, loser):
                AuditEntry.objects.create(
                    session=kept,
                    action="merge_overlap",
                    reason="two ranked attempts of one person at this daily overlapped in "
                    "time; this one, started first, stayed ranked",
                    data={"demoted": str(loser.pk), "guest": guest.pk, "account": account.pk},
                )
        GameSession.objects.filter(pk__in=[s.pk for s in demoted]).update(ranked=False)
        GameSession.objects.filter(player=guest).update(player=account)
        signals.attempts_merged.send(Player, account=account, guest=guest, demoted=demoted)
        # The guest's look-alike key goes too: its name is free for anyone again.
        Player.objects.filter(pk=guest.pk).update(merged_into=account, name_key=None)
        player_cache.forget(guest.pk)  # update() sends no signal
        # Guests merged into this guest earlier now lead to the account too.
        earlier = list(Player.objects.filter(merged_into=guest).values_list("pk", flat=True))
        Player.objects.filter(pk__in=earlier).update(merged_into=account)
        player_cache.forget(*earlier)
        for s in demoted:
            AuditEntry.objects.create(
                session=s,
                action="merge_demoted",
                reason="the same person's other ranked attempt at this daily started first",
                data={"guest": guest.pk, "account": account.pk},
            )
        # One person, one look: a win kept ranked beside a demoted attempt is reviewed
        # again, the demoted attempt now linked to it (games/fairplay/review.py); a win still to
        # come is reviewed with it when it is scored.
        for won in GameSession.objects.select_related("deal").filter(
            pk__in=[s.pk for s in kept_of], status=GameSession.WON
        ):
            review(won)
            transaction.on_commit(partial(signals.session_reviewed.send, GameSession, session=won))
    return [str(s.pk) for s in demoted]
