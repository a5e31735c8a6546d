"""A game's words come from its declaration, in every language the site speaks: its title on
every page, its rules page sentence by sentence, each with its French in the catalogue, and
its line in docs/rules.md.  Nothing here lists the games: a game added without its words
fails here.  And a game's key is checked against the catalogue, not against a list frozen
in a migration: adding one needs no migration."""

from __future__ import annotations

import html
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client

from games.engine import GAMES
from games.models import Deal, GameSession, game_choices
from tests.engine.variant import registered

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "frontend" / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def french() -> dict[str, str]:
    """The French catalogue's entries, msgid to msgstr, read from the .po file."""
    entries: dict[str, str] = {}
    text = CATALOGUE.read_text()
    for block in text.split("\n\n"):
        parts = re.findall(r'^(msgid|msgstr|msgctxt) ((?:".*"\n?)+)', block + "\n", re.M)
        fields = {kind: "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body)) for kind, body in parts}
        if fields.get("msgid") and "msgstr" in fields and "msgctxt" not in fields:
            entries[fields["msgid"].replace('\\"', '"')] = fields["msgstr"].replace('\\"', '"')
    return entries


def words(key: str) -> list[str]:
    cls = GAMES[key]
    return [cls.title, *cls.rules, *cls.controls]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_word_of_a_game_has_its_french(key: str) -> None:
    catalogue = french()
    missing = [line for line in words(key) if not catalogue.get(line)]
    assert not missing, f"add to {CATALOGUE.relative_to(ROOT)} (then msgfmt): {missing}"


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_rules_page_says_the_games_own_rules(db: None, key: str, lang: str) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/rules/{key}/")
    assert page.status_code == 200
    assert page["Content-Language"] == lang
    text = html.unescape(page.content.decode())
    catalogue = french()
    for line in words(key):
        assert (catalogue[line] if lang == "fr" else line) in text


def test_an_unknown_games_rules_are_not_found(db: None) -> None:
    assert Client().get("/rules/no-such-game/").status_code == 404


@pytest.mark.parametrize("key", sorted(GAMES))
def test_docs_rules_lists_every_game(key: str) -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    assert f"| `{key}` | {GAMES[key].title} |" in doc


def test_the_home_page_lists_every_game_by_its_title(db: None) -> None:
    for lang in ("en", "fr"):
        text = html.unescape(Client(HTTP_ACCEPT_LANGUAGE=lang).get("/").content.decode())
        for key, cls in GAMES.items():
            title = french()[cls.title] if lang == "fr" else cls.title
            assert f'<a href="/play/{key}/?deal=random">{title}</a>' in text


def test_a_games_key_is_checked_against_the_catalogue() -> None:
    def check(key: str) -> None:
        Deal(game=key, seed=3).full_clean(validate_unique=False, validate_constraints=False)

    with registered() as cls:
        check(cls.key)
    with pytest.raises(ValidationError) as refused:
        check(cls.key)
    assert [e.code for e in refused.value.error_dict["game"]] == ["invalid_choice"]


def test_a_new_game_needs_no_migration(db: None) -> None:
    """The models name the catalogue's function, never its list of the day, so with the
    tests' variant in the catalogue the models' state is still the migrations'."""
    for model in (Deal, GameSession):
        assert model._meta.get_field("game").deconstruct()[3]["choices"] is game_choices
    out = StringIO()
    with registered():
        call_command("makemigrations", "games", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
