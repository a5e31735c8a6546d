"""An account's email: optional, one account per address, used to sign in and to reset a
forgotten password (docs/api.md, "Accounts").

The proven address lives in Django's own ``auth_user.email``; migration 0007 adds a unique
index on its lower-cased form (empty excluded), so two accounts cannot hold one address
even when two proofs race.  An address is proven by a link mailed to it first
(games/accounts/verification.py); until then it is the account's pending address and
serves a password reset only.  Changing it asks for the current password: whoever can
change the address can take the account through a reset, so a borrowed session must not be
enough.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import PlayerError

EMAIL_TAKEN = gettext_lazy("that email belongs to another account")


def clean_email(value: object) -> str:
    """The address as stored (its domain lower-cased), or "" for none; PlayerError when it
    is no address."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise PlayerError(_("an email is text, for example name@example.com"))
    value = value.strip()
    if not value:
        return ""
    if len(value) > 254:
        raise PlayerError(_("that email is too long (254 characters at most)"))
    try:
        validate_email(value)
    except ValidationError:
        raise PlayerError(
            _("that is not an email address (for example name@example.com)")
        ) from None
    local, _at, domain = value.rpartition("@")
    return f"{local}@{domain.lower()}"


def email_in_use(email: str, exclude: int | None = None) -> bool:
    users = get_user_model().objects.filter(email__iexact=email)
    if exclude is not None:
        users = users.exclude(pk=exclude)
    return bool(email) and users.exists()


def save_email(user: AbstractBaseUser, email: str) -> None:
    """Store ``email`` on ``user``: PlayerError when another account holds it (checked
    first for a clear answer, and by the unique index for a race)."""
    if email_in_use(email, exclude=user.pk):
        raise PlayerError(str(EMAIL_TAKEN))
    try:
        with transaction.atomic():
            user.email = email  # type: ignore[attr-defined]
            user.save(update_fields=["email"])
    except IntegrityError:
        raise PlayerError(str(EMAIL_TAKEN)) from None


def reset_users(address: str) -> list[Any]:
    """The accounts a password reset for ``address`` goes to, each with ``email`` set to
    where the mail goes: the account that proved the address, else the accounts that gave
    it and have no proven address of their own (a reset proves it: verification.py).  No
    pending claim on an address another account proved gets a mail."""
    User = get_user_model()
    owners = list(User.objects.filter(email__iexact=address, is_active=True))
    if owners:
        return owners
    claimants = list(
        User.objects.filter(
            pending_email__address__iexact=address, email="", is_active=True
        ).select_related("pending_email")
    )
    for user in claimants:
        # In memory: where this mail goes (the address as given), never saved from here.
        user.email = user.pending_email.address
    return claimants


def username_for(login: str) -> str:
    """The username a sign-in names: ``login`` itself, or the username of the account whose
    email it is.  Usernames hold no "@", so the two cannot be confused; an unknown email is
    returned as it is, and fails to authenticate like any wrong username."""
    if "@" not in login:
        return login
    user = get_user_model().objects.filter(email__iexact=login.strip()).first()
    return user.get_username() if user is not None else login
