"""Guests and accounts (docs/rules.md, "Players and accounts").

A first visit gets a guest player bound to the browser session.  Signing up turns that guest
into an account in place, so every game it played stays its own; signing in on another
device brings the account's player back, and the games that device's guest played come
along with it.
"""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
import math
from typing import Any

from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import Max
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from games.accounts import player_cache, recovery
from games.accounts.merge import adopt_guest
from games.accounts.names import (
    NAME_TAKEN,
    USERNAME_RE,
    clean_display_name,
    generated_name,
    name_key,
)
from games.accounts.session_life import SESSION_KEY
from games.errors import PlayerError, TryLater
from games.fairplay import ratelimit
from games.models import Player, rows

_GUEST_FIELDS = rows.fields(Player, pk=False)  # what a new guest's INSERT writes (_new_guest)


def current_player(request: HttpRequest, create: bool = True) -> Player | None:
    """The player of this browser session, created as a guest on the first visit."""
    user = getattr(request, "user", None)
    player_id = request.session.get(SESSION_KEY)
    if user is not None and user.is_authenticated:
        player = player_cache.get(player_id) if player_id is not None else None
        if player is None or player.user_id != user.pk:
            player = Player.objects.filter(user=user).first()
        if player is None:
            player = _new_player(_name_from_username(user.get_username()), user=user)
        if player_id != player.pk:  # else the session would be written on every request
            request.session[SESSION_KEY] = player.pk
        return player
    if player_id is not None:
        player = player_cache.get(player_id)
        # A deleted player (games/accounts/leaving.py) is nobody's: another browser still
        # holding its session starts as a new guest.
        if player is not None and player.user_id is None and player.deleted_at is None:
            return player
    if not create:
        return None
    # Every first visit makes a row: one address making thousands is a script, not people.
    wait = ratelimit.hit("guests", f"a{ratelimit.client_address(request.META)}")
    if wait is not None:
        raise TryLater(
            _("too many new players from your address: try again in %(s)s s") % {"s": wait}, wait
        )
    player = _new_guest()
    request.session[SESSION_KEY] = player.pk
    return player


@functools.cache
def _guest_sql() -> str:
    table, columns = Player._meta.db_table, [f.column for f in _GUEST_FIELDS]
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
        f"({', '.join(['%s'] * len(columns))}) ON CONFLICT DO NOTHING RETURNING id"
    )


def _new_guest() -> Player:
    """A new guest under a generated name, stored by one statement (a first visit's table
    waits for it): an INSERT that does nothing when the name is taken, the unique key
    deciding, and is made again with another name.  Elsewhere than PostgreSQL,
    ``_new_player``'s look-up and transaction."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        return _new_player(None)
    for attempt in range(40):
        name = generated_name(min(6, 3 + attempt // 8))  # as _new_player draws them
        player = Player(display_name=name, name_key=name_key(name))
        with db.cursor() as cursor:
            cursor.execute(_guest_sql(), rows.values(player, _GUEST_FIELDS, db))
            row = cursor.fetchone()
        if row is not None:
            player.pk = row[0]
            rows.saved(player, DEFAULT_DB_ALIAS)
            return player
    raise RuntimeError("no free display name after 40 tries")


def _new_player(name: str | None, **fields: object) -> Player:
    """A new player named ``name`` or, when that is taken (or None), a generated name that
    looks like no other player's.  The unique key decides, so two requests racing for one
    name never both get it."""
    for attempt in range(40):
        # Three digits while they last; more once most of them are taken.
        name = name or generated_name(min(6, 3 + attempt // 8))
        key = name_key(name)
        if not Player.objects.filter(name_key=key).exists():  # spares the database an error
            try:
                with transaction.atomic():
                    return Player.objects.create(display_name=name, name_key=key, **fields)
            except IntegrityError:
                account: Any = fields.get("user")
                mine = Player.objects.filter(user=account).first() if account else None
                if mine is not None:  # the account's other request made its player first
                    return mine
        name = None
    raise RuntimeError("no free display name after 40 tries")


def _name_from_username(username: str) -> str | None:
    try:
        return clean_display_name(username)
    except PlayerError:
        return None


def rename(player: Player, value: object) -> Player:
    name = clean_display_name(value)
    key = name_key(name)
    if Player.objects.filter(name_key=key).exclude(pk=player.pk).exists():
        raise PlayerError(str(NAME_TAKEN))
    try:
        with transaction.atomic():  # the unique key settles a race the check above lost
            Player.objects.filter(pk=player.pk).update(display_name=name, name_key=key)
    except IntegrityError:
        raise PlayerError(str(NAME_TAKEN)) from None
    player_cache.forget(player.pk)  # update() sends no signal
    player.display_name, player.name_key = name, key
    return player


def set_anonymous(player: Player, anonymous: bool) -> Player:
    """Whether the open data of closed days names this player or says "anonymous"."""
    player.anonymous = anonymous
    player.save(update_fields=["anonymous"])
    return player


def set_hide_from_race(player: Player, hide: bool) -> Player:
    """Whether the live race on ranked dailies leaves this player out (the next second's
    race message already does)."""
    player.hide_from_race = hide
    player.save(update_fields=["hide_from_race"])
    return player


def sign_up(
    request: HttpRequest, username: object, password: object, email: object = None
) -> Player:
    """Give the current guest an account; its games stay with it.  The email is optional
    (games/accounts/recovery.py): without one a forgotten password cannot be reset.  It is
    pending until the link mailed to it is opened, and the answer is the same whether or
    not another account has it (games/accounts/verification.py)."""
    from games.accounts import verification

    if not isinstance(username, str) or not USERNAME_RE.match(username):
        raise PlayerError(_("a username has 3 to 30 letters, digits, '_', '-' or '.'"))
    if not isinstance(password, str) or not password:
        raise PlayerError(_("a password is required"))
    player = current_player(request)
    assert player is not None
    if not player.is_guest:
        raise PlayerError(_("you are already signed in; sign out first"))
    address = recovery.clean_email(email)
    User = get_user_model()
    try:
        # With the account's own attributes, so a password close to its username (or its
        # email) is refused.
        validate_password(password, User(username=username, email=address))
    except ValidationError as exc:
        raise PlayerError(" ".join(exc.messages)) from None
    try:
        with transaction.atomic():
            if User.objects.filter(username__iexact=username).exists():
                raise PlayerError(_("that username is taken"))
            user = User.objects.create_user(username=username, password=password)
            if address:
                verification.claim(request, user, address)
            player.user = user
            player.save(update_fields=["user"])
    except IntegrityError:  # the username's index
        raise PlayerError(_("that username is taken")) from None
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[SESSION_KEY] = player.pk
    return player


def sign_in(request: HttpRequest, username: object, password: object) -> Player:
    from django.contrib.auth import authenticate

    if not isinstance(username, str) or not isinstance(password, str):
        raise PlayerError(_("username and password are required"))
    # By username or by email; resolved first, so that django-axes counts the failures of
    # one account under one name whichever the player typed.
    username = recovery.username_for(username)
    user = authenticate(request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):  # set by django-axes (settings)
            # Answered here with when to come back; AxesMiddleware would put its page over it.
            request.axes_locked_out = False  # type: ignore[attr-defined]
            wait = _lockout_wait(request, username)
            raise TryLater(
                _(
                    "too many wrong passwords: signing in to this account from your address is "
                    "paused; try again in %(min)s min"
                )
                % {"min": math.ceil(wait / 60)},
                wait,
            )
        raise PlayerError(_("wrong username or password"))
    guest = current_player(request, create=False)
    login(request, user)
    player = current_player(request)
    assert player is not None
    if guest is not None and guest.is_guest and guest.pk != player.pk:
        adopt_guest(player, guest)
    return player


def _lockout_wait(request: HttpRequest, username: str) -> float:
    """Seconds until django-axes lets this username and address try again: the cool-off
    runs from the failure that reached the limit."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt

    cool_off = get_cool_off(request) or dt.timedelta(hours=1)
    last: dt.datetime | None = AccessAttempt.objects.filter(
        username=username, ip_address=getattr(request, "axes_ip_address", None)
    ).aggregate(last=Max("attempt_time"))["last"]
    if last is None:
        return cool_off.total_seconds()
    return (last + cool_off - timezone.now()).total_seconds()


def client_ip(request: HttpRequest) -> str | None:
    """The address django-axes counts failures by: REMOTE_ADDR, as for the rate limits,
    never a header a client could set (behind a proxy, make it pass the address there).
    None when it is no IP address (a unix socket, a test's force_login): axes stores
    addresses as IPs, and anything else would fail the sign-in."""
    address = request.META.get("REMOTE_ADDR")
    try:
        return str(ipaddress.ip_address(address)) if address else None
    except ValueError:
        return None


def sign_out(request: HttpRequest) -> None:
    logout(request)  # flushes the session: the next visit starts a new guest
