"""A forgotten password, reset by email: Django's own views and tokens, in the site's layout
and language.  The flow (docs/api.md, "Accounts"):

1. ``/account/password-reset/``: the player gives the account's email.  The answer is the
   same whether an account has it or not (the page tells nobody who plays here), and a
   mail goes out only when one does, sent by a worker so that the answer takes as long
   either way.  Mails are limited per client address and per email
   address (``RATE_LIMITS["resets"]``), so the form cannot flood anyone's inbox.
2. The mail's link (``/account/reset/<uid>/<token>/``) works once, for
   ``PASSWORD_RESET_TIMEOUT`` seconds: the token is a keyed hash over the password hash
   and the last sign-in, so setting a password or signing in spends it.
3. The new password passes the same validators as a sign-up; every session signed in with
   the old one is signed out (Django's session hash), and this address's sign-in lockout
   for the account is lifted.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _

from games.accounts import recovery, verification
from games.accounts.players import client_ip
from games.errors import PlayerError
from games.fairplay import ratelimit

from .views import site_context


class SitePage:
    """Django's auth views drawn in the site's layout (base.html), in the player's language."""

    request: Any

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return site_context(self.request, **super().get_context_data(**kwargs))  # type: ignore[misc]

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        response: HttpResponse = super().render_to_response(context, **kwargs)  # type: ignore[misc]
        response.headers["Content-Language"] = self.request.LANGUAGE_CODE
        return response


class ResetTokens(PasswordResetTokenGenerator):
    """Django's reset tokens, keyed on the address the mail went to: the proven email, or
    for an account without one its pending address (games.accounts.recovery.reset_users),
    so that the link still works when the account is read back from the database."""

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        address = user.email or verification.pending_address(user) or ""
        original, user.email = user.email, address
        try:
            return super()._make_hash_value(user, timestamp)
        finally:
            user.email = original


TOKENS = ResetTokens()


class QueuedResetForm(PasswordResetForm):
    """Django's reset form, its mail handed to a worker (games.tasks.send_account_mail), to
    the accounts ``recovery.reset_users`` names (a pending address serves a reset)."""

    def get_users(self, email: str) -> Any:
        return [u for u in recovery.reset_users(email) if u.has_usable_password()]

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        from django.template import loader

        from games.tasks import send_account_mail

        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        send_account_mail.delay(subject, body, to_email)


class ResetRequest(SitePage, auth_views.PasswordResetView):
    form_class = QueuedResetForm
    token_generator = TOKENS
    template_name = "frontend/reset/request.html"
    email_template_name = "frontend/reset/email.txt"
    subject_template_name = "frontend/reset/subject.txt"
    success_url = reverse_lazy("reset-sent")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"].strip().lower()
        # The email is counted by a hash: Redis keys hold no address.
        mailbox = hashlib.sha256(email.encode()).hexdigest()[:24]
        waits = [
            ratelimit.hit("resets", f"a{ratelimit.client_address(self.request.META)}"),
            ratelimit.hit("resets", f"m{mailbox}"),
        ]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            form.add_error(
                None,
                _("Too many reset mails were asked for; try again in %(minutes)d min.")
                % {"minutes": math.ceil(wait / 60)},
            )
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(wait)
            return response
        return super().form_valid(form)


class ResetSent(SitePage, auth_views.PasswordResetDoneView):
    template_name = "frontend/reset/sent.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        from django.conf import settings

        hours = max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)
        return super().get_context_data(hours=hours, **kwargs)


class ResetConfirm(SitePage, auth_views.PasswordResetConfirmView):
    template_name = "frontend/reset/confirm.html"
    success_url = reverse_lazy("reset-done")
    token_generator = TOKENS

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        from axes.models import AccessAttempt

        response = super().form_valid(form)
        # The link went to the pending address when there was no proven one: proven now.
        verification.proven_by_reset(form.user)
        # The owner proved the mailbox: their own address may sign in again at once.  Other
        # addresses' counts stay, so a guesser gains nothing from the owner's reset.
        AccessAttempt.objects.filter(
            username=form.user.get_username(), ip_address=client_ip(self.request)
        ).delete()
        return response


class ResetDone(SitePage, auth_views.PasswordResetCompleteView):
    template_name = "frontend/reset/done.html"


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: a button (GET shows it, so a mail scanner that
    fetches the link proves nothing), and its POST proves the address
    (games/accounts/verification.py).  No sign-in needed: the link is the proof."""
    context: dict[str, Any] = {}
    try:
        if request.method == "POST":
            user, address = verification.confirm(token)
            context["done"] = True
        else:
            user, address = verification.read_token(token)
        context.update(address=address, name=user.get_username())
    except PlayerError as exc:
        context["error"] = str(exc)
    response = render(
        request,
        "frontend/verify/confirm.html",
        site_context(request, **context),
        status=400 if "error" in context else 200,
    )
    response.headers["Content-Language"] = request.LANGUAGE_CODE
    return response
