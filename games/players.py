"""Guests and accounts (SPEC 5).

A first visit gets a guest player bound to the browser session.  Signing up turns that guest
into an account in place, so every game it played stays its own; signing in on another
device brings the account's player back, and the games that device's guest played come
along with it.
"""

from __future__ import annotations

import re
import secrets

from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from games.merge import adopt_guest
from games.models import Player

SESSION_KEY = "player_id"
NAME_RE = re.compile(r"^[\w .-]+$")  # letters (any script), digits, space, _ - .
USERNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{3,30}$")

_ADJECTIVES = ["Brisk", "Calm", "Clever", "Lucky", "Nimble", "Quiet", "Swift", "Wise", "Bold",
               "Merry", "Patient", "Sly", "Steady", "Keen", "Jolly", "Sunny"]
_NOUNS = ["Otter", "Heron", "Fox", "Badger", "Lynx", "Owl", "Marten", "Robin", "Hare",
          "Wren", "Falcon", "Seal", "Stoat", "Finch", "Beaver", "Crane"]


class PlayerError(ValueError):
    """A refused sign-up, sign-in or rename; ``str`` is the reason shown to the player."""


def generated_name() -> str:
    return f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_NOUNS)} {secrets.randbelow(1000):03d}"


def clean_display_name(value: object) -> str:
    if not isinstance(value, str):
        raise PlayerError("display_name must be a string")
    name = " ".join(value.split())
    if not 3 <= len(name) <= 24:
        raise PlayerError("a display name has 3 to 24 characters")
    if not NAME_RE.match(name) or not re.search(r"[^\W_]", name):
        raise PlayerError(
            "a display name uses letters, digits, spaces, '_', '-' and '.' "
            "(at least one letter or digit)"
        )
    return name


def current_player(request: HttpRequest, create: bool = True) -> Player | None:
    """The player of this browser session, created as a guest on the first visit."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"display_name": _name_from_username(user.get_username())}
        )
        request.session[SESSION_KEY] = player.pk
        return player
    player_id = request.session.get(SESSION_KEY)
    if player_id is not None:
        player = Player.objects.filter(pk=player_id, user__isnull=True).first()
        if player is not None:
            return player
    if not create:
        return None
    player = Player.objects.create(display_name=generated_name())
    request.session[SESSION_KEY] = player.pk
    return player


def _name_from_username(username: str) -> str:
    try:
        return clean_display_name(username)
    except PlayerError:
        return generated_name()


def rename(player: Player, value: object) -> Player:
    player.display_name = clean_display_name(value)
    player.save(update_fields=["display_name"])
    return player


def sign_up(request: HttpRequest, username: object, password: object) -> Player:
    """Give the current guest an account; its games stay with it."""
    if not isinstance(username, str) or not USERNAME_RE.match(username):
        raise PlayerError("a username has 3 to 30 letters, digits, '_', '-' or '.'")
    if not isinstance(password, str) or not password:
        raise PlayerError("a password is required")
    player = current_player(request)
    assert player is not None
    if not player.is_guest:
        raise PlayerError("you are already signed in; sign out first")
    User = get_user_model()
    try:
        validate_password(password)
    except ValidationError as exc:
        raise PlayerError(" ".join(exc.messages)) from None
    try:
        with transaction.atomic():
            if User.objects.filter(username__iexact=username).exists():
                raise PlayerError("that username is taken")
            user = User.objects.create_user(username=username, password=password)
            player.user = user
            player.save(update_fields=["user"])
    except IntegrityError:
        raise PlayerError("that username is taken") from None
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[SESSION_KEY] = player.pk
    return player


def sign_in(request: HttpRequest, username: object, password: object) -> Player:
    from django.contrib.auth import authenticate

    if not isinstance(username, str) or not isinstance(password, str):
        raise PlayerError("username and password are required")
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise PlayerError("wrong username or password")
    guest = current_player(request, create=False)
    login(request, user)
    player = current_player(request)
    assert player is not None
    if guest is not None and guest.is_guest and guest.pk != player.pk:
        adopt_guest(player, guest)
    return player


def sign_out(request: HttpRequest) -> None:
    logout(request)  # flushes the session: the next visit starts a new guest
