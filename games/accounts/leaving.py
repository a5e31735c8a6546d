"""A person leaves, and takes their data along (docs/rules.md, "Your data"; /privacy/).

``export``: everything kept about the player, as JSON: who they are, every game with its
moves and server times, its result and review, and the keyed hashes that link attempts for
fair play (the statistics are added by leaderboards, which computes them).

``delete``: for anyone, an account or a guest, whatever they are playing or however their
wins are reviewed.  What the boards need stays, nameless: the ranked attempts at dailies
that were played (their entries, ranks and open-data lines), on a player row renamed
"Deleted player", made anonymous in the open data (so its lines carry an id of their own
and no name, and its board rows no session id) and hidden from the race.  Everything else
goes: the account (username, password, email, pending email, failed sign-ins), every other
game (practice, random deals, archived dailies, offline games, attempts never started),
the guests merged into it, and the browser's session and device cookie.  Ranks on closed
boards do not move: no entry is removed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from games.accounts import player_cache
from games.errors import PlayerError
from games.models import GameSession, Player

DELETED_NAME = "Deleted player"
FORMAT = "daily-solitaire-player-data/1"


def _time(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _game(session: GameSession) -> dict[str, Any]:
    deal = session.deal
    return {
        "session": str(session.pk),
        "game": session.game,
        "deal": deal.public_id,
        "date": deal.date.isoformat() if deal.date else None,
        "ranked": session.ranked,
        "status": session.status,
        "score": session.score,
        "cards_up": session.cards_up,
        "move_count": session.move_count,
        "undo_count": session.undo_count,
        "hint_count": session.hint_count,
        # [token, server time in ms since the epoch]; "u" takes the move before back.
        "moves": [[m[0], m[1]] for m in session.moves],
        "created_at": _time(session.created_at),
        "started_at": _time(session.started_at),
        "finished_at": _time(session.finished_at),
        "time_ms": session.time_ms,
        "active_ms": session.active_ms,
        "verified": session.verified,
        "review": session.review or None,
        "review_reasons": session.review_reasons,
        "disqualified": session.disqualified,
        "disqualified_reason": session.disqualified_reason or None,
        "offline": bool(session.offline_id),
        # Keyed hashes (HMAC under the server's key), never the address or cookie itself.
        "fair_play_keys": {
            "address": session.client_key or None,
            "device": session.device_key or None,
        },
    }


def export(player: Player) -> dict[str, Any]:
    """The player's own data (their statistics: leaderboards.stats adds them)."""
    from games.accounts.verification import pending_address

    user = player.user
    sessions = (
        GameSession.objects.filter(player=player)
        .select_related("deal")
        .order_by("created_at", "id")
    )
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "about": "/privacy/ says what is kept, why and for how long",
        "player": {
            "id": player.pk,
            "display_name": player.display_name,
            "guest": player.is_guest,
            "username": user.get_username() if user else None,
            "email": (user.email or None) if user else None,
            "email_pending": pending_address(user) if user else None,
            "anonymous_in_open_data": player.anonymous,
            "hidden_from_race": player.hide_from_race,
            "created_at": _time(player.created_at),
            "last_sign_in": _time(user.last_login) if user else None,
        },
        "games": [_game(s) for s in sessions.iterator(chunk_size=200)],
    }


def delete(request: HttpRequest, player: Player, password: object, confirm: object) -> None:
    """Delete the player's account and history as the module says; an account confirms
    with its password (a borrowed session must not be enough), a guest with
    ``confirm: true``.  The browser is signed out: its next visit is a new guest."""
    user = player.user
    if user is not None:
        if not isinstance(password, str) or not user.check_password(password):
            raise PlayerError(_("wrong password: deleting the account needs your password"))
    elif confirm is not True:
        raise PlayerError(_('deleting this guest\'s games needs "confirm": true'))
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        kept = GameSession.objects.filter(
            player=locked, ranked=True, deal__date__isnull=False, started_at__isnull=False
        )
        GameSession.objects.filter(player=locked).exclude(pk__in=kept.values("pk")).delete()
        Player.objects.filter(merged_into=locked).delete()
        Player.objects.filter(pk=locked.pk).update(
            display_name=DELETED_NAME,
            name_key=None,
            user=None,
            anonymous=True,
            hide_from_race=True,
            deleted_at=timezone.now(),
        )
        if user is not None:
            _forget_account(user)
    player_cache.forget(player.pk)
    logout(request)  # flushes this browser's session


def _forget_account(user: Any) -> None:
    """The account itself and what django-axes counted against its username."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    username = user.get_username()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=username).delete()
    user.delete()  # its pending email with it; audit entries keep no actor
