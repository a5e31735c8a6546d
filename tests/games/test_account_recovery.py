"""An account people can recover (games/accounts/recovery.py, frontend/accounts.py): an
optional email, proven by a link before it is used (tests/games/test_email_verification.py),
one account per address, sign-in by username or email, and a password reset by mail whose
link works once.  The same flow in a real browser, the link read from the mail
the server wrote: tests/frontend/test_password_reset.py.

What an attacker could try, and why it fails:
- learn who plays here from the reset form: the answer and the page are the same for a
  known and an unknown address (compared below), only a known one gets mail, and the mail
  is sent by a worker, so the answer's timing does not tell them apart either (a few
  database reads, against an SMTP exchange when it was sent in the request);
- flood someone's inbox through the form: mails are limited per client address and per
  email address (``RATE_LIMITS["resets"]``), each counted on its own;
- take an account through a borrowed session: changing the email needs the password;
- replay a reset link: Django's token covers the password hash, so it is spent once used;
- hold one address on two accounts (and so reset someone else's): a unique index on the
  lower-cased address, which a race between two sign-ups cannot pass either.
"""

from __future__ import annotations

import re
import secrets

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client

PASSWORD = "correct horse 42"
LINK = re.compile(r"https?://testserver(/account/reset/[^/\s]+/[^/\s]+/)")
VERIFY = re.compile(r"https?://testserver(/account/verify-email/[^/\s]+/)")


def account(api, username="ada", email="Ada@Example.COM", prove=None):
    """An account signed up over the API; with ``prove`` (the on-commit capture fixture)
    its address proven by the link mailed to it, as its owner would."""
    c = api()
    if prove is None:
        r = c.post(
            "/api/auth/signup/", {"username": username, "password": PASSWORD, "email": email}
        )
    else:
        with prove(execute=True):
            r = c.post(
                "/api/auth/signup/", {"username": username, "password": PASSWORD, "email": email}
            )
        link = VERIFY.search(mail.outbox[-1].body).group(1)
        assert Client().post(link).status_code == 200
        mail.outbox.clear()
    assert r.status_code == 201, r.content
    c.csrf = c.client.cookies["csrftoken"].value
    return c, r.json()


def test_sign_up_with_an_email_and_sign_in_by_either_name(api, django_capture_on_commit_callbacks):
    _, me = account(api, prove=django_capture_on_commit_callbacks)
    assert me["email"] is None
    assert me["email_pending"] == "Ada@example.com"  # until proven
    assert api().get("/api/me/").json()["email_pending"] is None
    assert get_user_model().objects.get(username="ada").email == "Ada@example.com"
    for login in ("ada", "ada@example.com", "ADA@EXAMPLE.COM"):
        other = api()
        r = other.post("/api/auth/signin/", {"username": login, "password": PASSWORD})
        assert r.status_code == 200, (login, r.content)
        assert r.json()["id"] == me["id"]
        assert r.json()["username"] == "ada"
    wrong = api().post("/api/auth/signin/", {"username": "ada@example.com", "password": "no"})
    assert wrong.status_code == 400
    assert "wrong username or password" in wrong.json()["reason"]
    unknown = api().post("/api/auth/signin/", {"username": "who@example.com", "password": PASSWORD})
    assert unknown.json()["reason"] == wrong.json()["reason"]  # nothing said about the address


def test_the_email_is_optional_and_a_guest_has_none(api):
    c = api()
    assert c.me["email"] is None
    r = c.post("/api/auth/signup/", {"username": "grace", "password": PASSWORD})
    assert r.status_code == 201
    assert r.json()["email"] is None


@pytest.mark.parametrize("email", ["not-an-address", "a@b", "x" * 250 + "@example.com", 42])
def test_a_bad_email_is_refused_and_nothing_is_made(api, email):
    c = api()
    r = c.post("/api/auth/signup/", {"username": "alan", "password": PASSWORD, "email": email})
    assert r.status_code == 400, r.content
    assert r.json()["reason"], r.content
    assert not get_user_model().objects.filter(username="alan").exists()


def test_one_address_belongs_to_one_account(api, django_capture_on_commit_callbacks):
    account(api, "ada", "ada@example.com", prove=django_capture_on_commit_callbacks)
    c = api()
    r = c.post(
        "/api/auth/signup/", {"username": "eve", "password": PASSWORD, "email": "ADA@example.com"}
    )
    # The same answer as for a free address (test_email_verification.py): eve's account is
    # made with the address pending, and it can never be proven.
    assert r.status_code == 201
    assert r.json()["email"] is None
    assert get_user_model().objects.get(username="ada").email == "ada@example.com"
    assert get_user_model().objects.get(username="eve").email == ""


@pytest.mark.django_db
def test_the_database_itself_refuses_a_second_account_with_the_address():
    """What two racing sign-ups would reach: past the check, the unique index."""
    User = get_user_model()
    User.objects.create_user("ada", "ada@example.com", PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("eve", "Ada@Example.com", PASSWORD)
    User.objects.create_user("bob", "", PASSWORD)
    User.objects.create_user("cy", "", PASSWORD)  # no address is not an address


def test_changing_the_email_needs_the_password(api, django_capture_on_commit_callbacks):
    c, me = account(api, prove=django_capture_on_commit_callbacks)
    r = c.put("/api/me/email/", {"email": "ada@new.example", "password": "wrong"})
    assert r.status_code == 400
    assert "current password" in r.json()["reason"]
    assert c.get("/api/me/").json()["email"] == "Ada@example.com"
    r = c.put("/api/me/email/", {"email": "ada@new.example", "password": PASSWORD})
    # The proven address stays until the new one is proven.
    assert r.status_code == 200
    assert r.json()["email"] == "Ada@example.com"
    assert r.json()["email_pending"] == "ada@new.example"
    r = c.put("/api/me/email/", {"email": "", "password": PASSWORD})
    assert r.status_code == 200
    assert r.json()["email"] is None
    assert r.json()["email_pending"] is None
    guest = api()
    r = guest.put("/api/me/email/", {"email": "g@example.com", "password": PASSWORD})
    assert r.status_code == 400
    assert "sign up first" in r.json()["reason"]
    r = guest.put("/api/me/email/", {"email": "g@example.com"})
    assert r.status_code == 400
    assert "password" in r.content.decode()


def test_a_password_close_to_the_username_or_email_is_refused(api):
    r = api().post(
        "/api/auth/signup/",
        {"username": "margaret", "password": "margaret1", "email": "m@example.com"},
    )
    assert r.status_code == 400
    assert "similar" in r.json()["reason"]
    r = api().post(
        "/api/auth/signup/", {"username": "bob", "password": "83749218", "email": "b@example.com"}
    )
    assert r.status_code == 400
    assert "numeric" in r.json()["reason"]


def _ask_reset(client: Client, email: str):
    return client.post("/account/password-reset/", {"email": email})


def test_a_reset_mail_sets_a_new_password_once(api):
    c, me = account(api)
    browser = Client()
    r = _ask_reset(browser, "ADA@example.com")
    assert r.status_code == 302
    assert r["Location"] == "/account/password-reset/sent/"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["Ada@example.com"]
    assert "Daily Solitaire" in mail.outbox[0].subject
    link = LINK.search(mail.outbox[0].body).group(1)
    form = browser.get(link, follow=True)
    assert form.status_code == 200
    assert b'name="new_password1"' in form.content
    assert b"ada" in form.content
    set_url = form.redirect_chain[-1][0]
    weak = browser.post(set_url, {"new_password1": "ada", "new_password2": "ada"})
    assert weak.status_code == 200
    assert b"too short" in weak.content  # the validators apply
    done = browser.post(
        set_url, {"new_password1": "a new horse 77", "new_password2": "a new horse 77"}
    )
    assert done.status_code == 302
    assert done["Location"] == "/account/reset/done/"
    assert (
        api().post("/api/auth/signin/", {"username": "ada", "password": PASSWORD}).status_code
        == 400
    )
    assert (
        api()
        .post("/api/auth/signin/", {"username": "ada@example.com", "password": "a new horse 77"})
        .status_code
        == 200
    )
    # The session signed in with the old password is signed out.
    assert c.get("/api/me/").json()["id"] != me["id"]
    # The link is spent.
    again = Client().get(link, follow=True)
    assert b'name="new_password1"' not in again.content
    assert b"reset-invalid" in again.content


def test_the_form_says_the_same_for_an_unknown_address_and_mails_nobody(api):
    account(api)
    known = _ask_reset(Client(), "ada@example.com")
    unknown = _ask_reset(Client(), "nobody@example.com")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(mail.outbox) == 1
    sent = Client().get(unknown["Location"])
    assert sent.status_code == 200
    assert b"If an account has that email" in sent.content


def test_reset_mails_are_limited_per_address_asked_and_per_client(api, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "resets": (2, 3600)}
    # Counts live in Redis for the hour: addresses of this run's own.
    tag = secrets.token_hex(4)
    email = f"ada-{tag}@example.com"
    account(api, "ada", email)
    here = {"REMOTE_ADDR": f"10.{int(tag[:2], 16)}.{int(tag[2:4], 16)}.{int(tag[4:6], 16)}"}
    for _ in range(2):
        assert Client(**here).post("/account/password-reset/", {"email": email}).status_code == 302
    third = Client(**here).post("/account/password-reset/", {"email": email})
    assert third.status_code == 429
    assert int(third["Retry-After"]) > 0
    assert b"Too many reset mails" in third.content
    # From elsewhere, the address asked for is still over its own limit.
    elsewhere = Client(REMOTE_ADDR="203.0.113.9").post(
        "/account/password-reset/", {"email": email.upper()}
    )
    assert elsewhere.status_code == 429
    assert len(mail.outbox) == 2


def test_the_reset_pages_are_in_french_for_a_french_browser(api):
    account(api)
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/account/password-reset/")
    assert page.status_code == 200
    assert page["Content-Language"] == "fr"
    assert "Mot de passe oublié".encode() in page.content
    assert b'<html lang="fr">' in page.content
