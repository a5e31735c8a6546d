"""An account's email is proven by a link mailed to it before it is used for anything but a
password reset (docs/api.md, "Accounts").

An address given at sign-up or in a change is kept as the account's ``PendingEmail``, and
the answer is the same whoever holds the address: the new address is "pending" either way.
If no account has it, a link is mailed to it; if another account has it verified, that
account's owner gets a mail saying someone tried to use their address instead, and the
pending address can never be proven (the link is never sent).  So neither the answer nor
its timing (mails go through a worker, one either way) tells anyone who has an account.

The link (``/account/verify-email/<token>/``, frontend/accounts.py) carries a signed
(user, address) pair that expires after ``EMAIL_VERIFY_TIMEOUT`` seconds; opening it shows
a button, and only the button's POST proves the address (a mail scanner that fetches links
proves nothing).  It works while that address is still the account's pending one: a newer
address, or the proof itself, spends it.  A password reset completed from a link sent to
the pending address proves it too (the reset mail went to that mailbox).

Mails to one address are limited (``RATE_LIMITS["account_mails"]``); over the limit the
answer is the same and no mail goes out, so the forms cannot flood anyone's inbox.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games.accounts import recovery
from games.errors import PlayerError
from games.fairplay import ratelimit
from games.models import PendingEmail, Player

SALT = "games.accounts.verification"


def pending_address(user: Any) -> str | None:
    if user is None or user.pk is None:
        return None
    return PendingEmail.objects.filter(user=user).values_list("address", flat=True).first()


def make_token(user: Any, address: str) -> str:
    return signing.dumps({"u": user.pk, "a": address.lower()}, salt=SALT, compress=True)


def _mail_allowed(address: str) -> bool:
    """Counted by a hash: Redis keys hold no address."""
    mailbox = hashlib.sha256(address.strip().lower().encode()).hexdigest()[:24]
    return ratelimit.hit("account_mails", f"m{mailbox}") is None


def _send(template: str, to: str, context: dict[str, Any]) -> None:
    from games.tasks import send_account_mail

    subject = "".join(
        render_to_string(f"frontend/verify/{template}_subject.txt", context).splitlines()
    )
    body = render_to_string(f"frontend/verify/{template}.txt", context)
    send_account_mail.delay(subject, body, to)


def claim(request: HttpRequest, user: Any, address: str) -> None:
    """Keep ``address`` as ``user``'s pending email and send the mail that goes with it
    (a link to prove it, or a word to the account that has it), once the caller's
    transaction has committed.  Says nothing about who has the address."""
    if address.lower() == (getattr(user, "email", "") or "").lower():
        PendingEmail.objects.filter(user=user).delete()  # their own already: nothing to prove
        return
    PendingEmail.objects.update_or_create(user=user, defaults={"address": address})
    owner = get_user_model().objects.filter(email__iexact=address).exclude(pk=user.pk).first()
    if owner is not None:
        context = {
            "owner": owner.get_username(),
            "reset": request.build_absolute_uri(reverse("reset")),
        }
        mail = ("taken", getattr(owner, "email", address), context)
    else:
        link = request.build_absolute_uri(reverse("verify-email", args=[make_token(user, address)]))
        hours = max(1, settings.EMAIL_VERIFY_TIMEOUT // 3600)
        mail = ("link", address, {"name": user.get_username(), "link": link, "hours": str(hours)})

    def send() -> None:
        if _mail_allowed(address):
            _send(*mail)

    transaction.on_commit(send)


def read_token(token: str) -> tuple[Any, str]:
    """The account and address a link names, or PlayerError saying why it no longer
    works."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_VERIFY_TIMEOUT)
        user = get_user_model().objects.get(pk=data["u"])
        address = str(data["a"])
    except (signing.BadSignature, KeyError, TypeError, get_user_model().DoesNotExist):
        raise PlayerError(
            _("this link is not valid or has expired: ask for a new one from your account page")
        ) from None
    pending = pending_address(user)
    if pending is None or pending.lower() != address:
        raise PlayerError(
            _(
                "this link was already used, or a newer address was given since: "
                "your account page says which address is waiting"
            )
        )
    return user, pending


def confirm(token: str) -> tuple[Any, str]:
    """Prove the address a link names: it becomes the account's email."""
    user, address = read_token(token)
    with transaction.atomic():
        recovery.save_email(user, address)  # PlayerError if another account proved it first
        PendingEmail.objects.filter(user=user).delete()
    return user, address


def proven_by_reset(user: Any) -> None:
    """A reset completed from a link mailed to the pending address proves that address
    (``recovery.reset_address`` sent it there only when the account has no email)."""
    if getattr(user, "email", ""):
        return
    address = pending_address(user)
    if address is None or recovery.email_in_use(address, exclude=user.pk):
        return
    with transaction.atomic():
        recovery.save_email(user, address)
        PendingEmail.objects.filter(user=user).delete()


def forget(user: Any) -> None:
    PendingEmail.objects.filter(user=user).delete()


def set_email(request: HttpRequest, player: Player, email: object, password: object) -> Player:
    """Give (or, with "", remove) a signed-in player's email, given their password.  A new
    address is pending until the link mailed to it is opened; the answer is the same
    whether another account has it."""
    if player.is_guest or player.user is None:
        raise PlayerError(_("only an account has an email: sign up first"))
    if not isinstance(password, str) or not player.user.check_password(password):
        raise PlayerError(_("wrong password: changing the email needs your current password"))
    address = recovery.clean_email(email)
    with transaction.atomic():
        if not address:
            recovery.save_email(player.user, "")
            forget(player.user)
        else:
            claim(request, player.user, address)
    return player
