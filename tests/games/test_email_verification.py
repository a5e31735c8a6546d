"""An account's email is proven by a link before it is used for anything but a password
reset, and neither sign-up nor a change of email tells anyone who has an account
(games/accounts/verification.py).

What an attacker could try, and why it fails:
- learn whether an address has an account from sign-up or the email form: the answer is
  the same status and the same fields for a taken and a free address (compared below,
  field by field), the address shows as pending either way, and exactly one mail goes out
  either way, by a worker, so the answer's timing does not differ by an SMTP exchange;
  the owner of a taken address is told instead;
- claim someone else's address: the link goes to that mailbox only, the owner of a taken
  address never gets a link, and a mail scanner that fetches the link proves nothing
  (only the page's button, a POST, does);
- replay or forge a link: it is signed with the server's key, expires, and names the
  pending address, so proving it (or giving a newer one) spends it;
- flood an inbox through the forms: mails to one address are limited
  (``RATE_LIMITS["account_mails"]``), and past the limit the answer stays the same.
"""

from __future__ import annotations

import re
import secrets

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

PASSWORD = "correct horse 42"
VERIFY = re.compile(r"https?://testserver(/account/verify-email/[^/\s]+/)")


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """The mails that go once a request's transaction commits, sent in the test too."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def sign_up(api, committed, username: str, email: str):
    c = api()
    with committed():
        r = c.post(
            "/api/auth/signup/", {"username": username, "password": PASSWORD, "email": email}
        )
    c.csrf = c.client.cookies["csrftoken"].value
    return c, r


def link_in(message) -> str:
    return VERIFY.search(message.body).group(1)


def test_an_address_is_pending_until_the_mailed_link_is_confirmed(api, committed):
    c, r = sign_up(api, committed, "ada", "ada@example.com")
    assert r.status_code == 201
    assert (r.json()["email"], r.json()["email_pending"]) == (None, "ada@example.com")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.com"]
    link = link_in(mail.outbox[0])
    # Not used to sign in while pending: the same answer as for an unknown address.
    signin = api().post("/api/auth/signin/", {"username": "ada@example.com", "password": PASSWORD})
    assert signin.status_code == 400
    assert "wrong username or password" in signin.json()["reason"]
    page = Client().get(link)  # what a mail scanner does: proves nothing
    assert page.status_code == 200
    assert b"verify-confirm" in page.content
    assert get_user_model().objects.get(username="ada").email == ""
    done = Client().post(link)
    assert done.status_code == 200
    assert b"verify-done" in done.content
    me = c.get("/api/me/").json()
    assert (me["email"], me["email_pending"]) == ("ada@example.com", None)
    assert (
        api()
        .post("/api/auth/signin/", {"username": "ada@example.com", "password": PASSWORD})
        .status_code
        == 200
    )
    again = Client().post(link)
    assert again.status_code == 400
    assert b"already used" in again.content


def _shape(body: dict) -> dict:
    """The answer without what differs by nature between two sign-ups."""
    return {
        k: v for k, v in body.items() if k not in ("id", "display_name", "username", "csrf_token")
    }


def test_sign_up_answers_the_same_for_a_taken_address_and_mails_its_owner(api, committed):
    sign_up(api, committed, "ada", "ada@example.com")
    assert Client().post(link_in(mail.outbox[-1])).status_code == 200
    mail.outbox.clear()
    _, free = sign_up(api, committed, "bob", "bob@example.com")
    _, taken = sign_up(api, committed, "eve", "ADA@example.com")
    assert (free.status_code, taken.status_code) == (201, 201)
    assert _shape(free.json()) | {"email_pending": "x"} == _shape(taken.json()) | {
        "email_pending": "x"
    }
    assert taken.json()["email_pending"] == "ADA@example.com"
    assert sorted(free.json()) == sorted(taken.json())
    # One mail each: a link to the free address, a word to the taken one's owner, no link.
    assert [m.to for m in mail.outbox] == [["bob@example.com"], ["ada@example.com"]]
    told = mail.outbox[1]
    assert VERIFY.search(told.body) is None
    assert '"ada"' in told.body
    assert "another Daily Solitaire account" in told.subject
    User = get_user_model()
    assert User.objects.get(username="eve").email == ""  # and can never be proven
    assert User.objects.get(username="ada").email == "ada@example.com"


def test_changing_to_a_taken_address_answers_the_same_and_changes_nothing(api, committed):
    sign_up(api, committed, "ada", "ada@example.com")
    Client().post(link_in(mail.outbox[-1]))
    c, _ = sign_up(api, committed, "eve", "eve@example.com")
    Client().post(link_in(mail.outbox[-1]))
    mail.outbox.clear()
    with committed():
        free = c.put("/api/me/email/", {"email": "eve2@example.com", "password": PASSWORD})
    with committed():
        taken = c.put("/api/me/email/", {"email": "Ada@Example.com", "password": PASSWORD})
    assert (free.status_code, taken.status_code) == (200, 200)
    assert sorted(free.json()) == sorted(taken.json())
    assert taken.json()["email"] == "eve@example.com"  # the proven one stays
    assert taken.json()["email_pending"] == "Ada@example.com"
    assert [m.to for m in mail.outbox] == [["eve2@example.com"], ["ada@example.com"]]
    assert VERIFY.search(mail.outbox[1].body) is None
    # The first link was spent by the newer address: the pending one is the taken one.
    stale = Client().post(link_in(mail.outbox[0]))
    assert stale.status_code == 400
    assert get_user_model().objects.get(username="ada").email == "ada@example.com"


def test_a_link_for_an_address_another_account_proved_first_is_refused(api, committed):
    sign_up(api, committed, "ada", "race@example.com")
    ada_link = link_in(mail.outbox[-1])
    sign_up(api, committed, "bob", "race@example.com")
    bob_link = link_in(mail.outbox[-1])  # both free when asked: both got a link
    assert Client().post(bob_link).status_code == 200
    late = Client().post(ada_link)
    assert late.status_code == 400
    assert b"another account" in late.content
    assert get_user_model().objects.get(username="ada").email == ""


def test_a_forged_or_expired_link_proves_nothing(api, committed, settings):
    sign_up(api, committed, "ada", "ada@example.com")
    link = link_in(mail.outbox[-1])
    token = link.rstrip("/").rsplit("/", 1)[1]
    forged = Client().post(link.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB")))
    assert forged.status_code == 400
    assert b"not valid" in forged.content
    settings.EMAIL_VERIFY_TIMEOUT = -1
    expired = Client().post(link)
    assert expired.status_code == 400
    assert b"expired" in expired.content
    assert get_user_model().objects.get(username="ada").email == ""


def test_mails_to_one_address_are_limited_and_the_answer_stays_the_same(api, committed, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "account_mails": (1, 3600)}
    address = f"flood-{secrets.token_hex(4)}@example.com"  # counts live in Redis an hour
    answers = [sign_up(api, committed, f"u{i}{secrets.token_hex(2)}", address)[1] for i in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert {a.json()["email_pending"] for a in answers} == {address}
    assert len(mail.outbox) == 1


def test_a_pending_address_serves_a_password_reset_and_the_reset_proves_it(api, committed):
    sign_up(api, committed, "ada", "ada@example.com")
    mail.outbox.clear()
    assert (
        Client().post("/account/password-reset/", {"email": "ada@example.com"}).status_code == 302
    )
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.com"]
    # A pending claim on an address another account proved gets no reset mail.
    Client().post(link_in(_sign_up_mail(api, committed, "bob", "bob@example.com")))
    sign_up(api, committed, "eve", "bob@example.com")
    mail.outbox.clear()
    Client().post("/account/password-reset/", {"email": "bob@example.com"})
    assert len(mail.outbox) == 1
    assert "bob" in mail.outbox[0].body
    assert "eve" not in mail.outbox[0].body


def _sign_up_mail(api, committed, username, email):
    sign_up(api, committed, username, email)
    return mail.outbox[-1]


@pytest.mark.django_db
def test_addresses_stored_before_were_never_proven_and_become_pending():
    """Migration 0016: an address stored on the password's word is pending after it."""
    from importlib import import_module

    from django.apps import apps

    from games.models import PendingEmail

    User = get_user_model()
    old = User.objects.create_user("old", "old@example.com", PASSWORD)
    User.objects.create_user("none", "", PASSWORD)
    import_module("games.migrations.0016_pending_email").unproven(apps, None)
    old.refresh_from_db()
    assert old.email == ""
    assert PendingEmail.objects.get(user=old).address == "old@example.com"
    assert PendingEmail.objects.count() == 1
