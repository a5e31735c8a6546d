"""A forgotten password, reset end to end in Chromium as a player does it: sign up with an
email, sign out, ask for the link, open it from the mail the server sent (the session's
server writes its mail to files: tests/frontend/conftest.py), set a new password, and sign
in with the email and the new password.  The rules of the flow: frontend/accounts.py, and
tests/games/test_account_recovery.py for what an attacker would try."""

from __future__ import annotations

import re
import secrets
import time
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

LINK = re.compile(r"https?://[^/\s]+(/account/reset/[^/\s]+/[^/\s]+/)")


def mail_to(mail_dir: Path, address: str, timeout: float = 15) -> str:
    """The body of the newest mail sent to ``address``."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for path in sorted(mail_dir.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True):
            # The file backend writes each message, then a line of dashes.
            for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                msg = message_from_bytes(raw.strip(), policy=policy.default)
                if msg["To"] == address:
                    return str(msg.get_body(("plain",)).get_content())
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address} in {mail_dir}")


def test_a_forgotten_password_is_reset_by_email_in_a_browser(
    new_table: Any, mail_dir: Path
) -> None:
    tag = secrets.token_hex(3)
    user, email = f"reset{tag}", f"reset-{tag}@example.com"
    t = new_table()
    page = t.page
    page.goto(f"{t.base}/account/")
    page.locator("#acct-name").wait_for()
    signup = page.locator("#f-signup")
    signup.get_by_label("Username", exact=True).fill(user)
    signup.get_by_label("Password", exact=True).fill("first pass phrase 1")
    signup.get_by_label("Email", exact=False).fill(email)
    signup.locator("button").click()
    page.locator("#acct-email", has_text=email).wait_for()
    page.locator("#f-signout button").click()
    page.locator("#f-signup").wait_for()

    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(email.upper())  # the address as the player types it
    page.get_by_role("button", name="Send the link").click()
    page.locator("#reset-sent").wait_for()
    assert page.url.endswith("/account/password-reset/sent/")

    body = mail_to(mail_dir, email)
    link = LINK.search(body)
    assert link, body
    page.goto(t.base + link.group(1))
    page.locator("#f-new-password").wait_for()
    assert user in page.locator("main").inner_text()
    page.get_by_label("New password").fill("second pass phrase 2")
    page.get_by_label("The same again").fill("second pass phrase 2")
    page.get_by_role("button", name="Set the password").click()
    page.locator("#reset-done").wait_for()

    # The link is spent: opened again it says so.
    page.goto(t.base + link.group(1))
    page.locator("#reset-invalid").wait_for()

    page.goto(f"{t.base}/account/")
    signin = page.locator("#f-signin")
    signin.get_by_label("Username or email").fill(email)
    signin.get_by_label("Password").fill("first pass phrase 1")
    signin.locator("button").click()
    page.locator("#acct-msg.refusal", has_text="wrong username or password").wait_for()
    signin.get_by_label("Password").fill("second pass phrase 2")
    signin.locator("button").click()
    page.locator("#f-signout").wait_for(state="visible")
    page.locator("#acct-email", has_text=email).wait_for()
    # Signed in: the page says as whom, and the sign-in and sign-up forms are gone.
    page.locator("#acct-msg.hint", has_text=f"Signed in as {user}").wait_for()
    assert signin.is_hidden()
    assert page.locator("#f-signup").is_hidden()
    page.locator("#f-signout button").click()
    page.locator("#acct-msg.hint", has_text="Signed out").wait_for()
    assert signin.is_visible()
    assert not t.errors, t.errors
