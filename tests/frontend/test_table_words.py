"""What the table says, in English and French: New deal on a ranked daily in play asks
first and says what becomes of the attempt (docs/rules.md, "The daily challenge");
FreeCell's counter has one name, the rule text's, on the table and on the rules page; each
game's score is kept, shown and explained by its declared scoring (Aisleriot's variants: a
point a card up)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.engine import new_game

from .helpers import play_tokens

# Each test runs once on a desktop in English and once on a phone held upright in French.
SCREENS = {"desktop": {}, "phone": {"width": 390, "height": 844, "touch": True}}
EN_DESKTOP_FR_PHONE = [("en-US", "desktop"), ("fr-FR", "phone")]

WORDS = {  # the confirmation's words on what becomes of the attempt, per language
    "en-US": ("until the day closes", "come back to it"),
    "fr-FR": ("jusqu'à la fin de la journée", "vous pouvez y revenir"),
}


@pytest.mark.parametrize(("locale", "screen"), EN_DESKTOP_FR_PHONE)
def test_new_deal_on_a_ranked_daily_in_play_asks_first(
    new_table: Any, locale: str, screen: str
) -> None:
    t = new_table(locale=locale, **SCREENS[screen]).open("freecell")
    assert t.s["ranked"]
    seq = t.seq()
    t.page.evaluate("(tok) => window.solitaire.move(tok)", t.s["legal_moves"][0]["move"])
    t.wait_seq(seq)
    attempt, seq = t.s["id"], t.seq()
    asked: list[str] = []

    def refuse(d: Any) -> None:
        asked.append(d.message)
        d.dismiss()

    # The button, refused: the attempt stays on the table.
    t.page.once("dialog", refuse)
    t.page.locator("#btn-third").click()
    t.page.wait_for_timeout(300)
    assert len(asked) == 1, asked
    assert all(w in asked[0] for w in WORDS[locale]), asked
    assert "deal=random" not in t.page.url
    assert t.s["id"] == attempt
    # N, accepted: a new deal; the daily's page opens the same attempt again.
    t.page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    t.page.locator("body").press("n")
    t.page.wait_for_url("**/play/freecell/?deal=random")
    assert len(asked) == 2
    t.open("freecell")
    assert t.s["id"] == attempt
    assert t.seq() == seq
    assert t.s["status"] == "playing"


def test_new_deal_on_practice_asks_nothing(new_table: Any) -> None:
    t = new_table().open("freecell", "1")
    asked: list[str] = []
    t.page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    t.page.evaluate("() => window.solitaire.move('8a')")
    t.page.locator("#btn-third").click()
    t.page.wait_for_url("**/play/freecell/?deal=random")
    assert not asked


@pytest.mark.parametrize(
    ("locale", "quotes", "screen"), [("en-US", "“{}”", "desktop"), ("fr-FR", "« {} »", "phone")]
)
def test_freecells_counter_has_the_rules_name(
    new_table: Any, locale: str, quotes: str, screen: str
) -> None:
    t = new_table(locale=locale, **SCREENS[screen]).open("freecell", "1")
    shown = t.page.locator("#st-limit").inner_text().strip()
    assert re.fullmatch(r"\D+ \d+", shown), shown
    name = re.sub(r"\d+", "N", shown)
    t.page.goto(f"{t.base}/rules/freecell/")
    rules = t.page.locator("article.rules").inner_text()
    assert quotes.format(name) in rules, (name, rules)
    if locale == "en-US":
        doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
        assert f'"{name}"' in doc


def _seed(public_id: str) -> int:
    """A deal's seed, read from the test server's database (never sent to players)."""
    import psycopg

    from .conftest import DB_NAME, PG

    with psycopg.connect(f"{PG}/{DB_NAME}") as conn:
        row = conn.execute(
            "SELECT seed FROM games_deal WHERE public_id = %s", (public_id,)
        ).fetchone()
    return int(row[0])


def _to_a_card_up(game: str, seed: int) -> list[str] | None:
    """Turns of the stock and moves up until a card is up (found with the engine)."""
    g = new_game(game, seed)
    path: list[str] = []
    for _ in range(120):
        if g.cards_up:
            return path
        ups = [m for m in g.legal_moves() if g.notation(m).endswith("h")]
        turns = [m for m in g.legal_moves() if g.notation(m) in ("s", "r")]
        if not (ups or turns):
            return None
        m = (ups or turns)[0]
        path.append(g.notation(m))
        g.apply(m)
    return None


SCORING_WORDS = {
    "en-US": ("one point a card", "+10 a card up"),
    "fr-FR": ("un point par carte", "+10 par carte montée"),
}


@pytest.mark.parametrize(("locale", "screen"), EN_DESKTOP_FR_PHONE)
def test_aisleriots_variants_show_aisleriots_score_and_the_rules_say_which(
    new_table: Any, locale: str, screen: str
) -> None:
    aisleriot, windows = SCORING_WORDS[locale]
    t = new_table(locale=locale, **SCREENS[screen])
    for _ in range(8):  # a deal where turning the stock brings a card up (3 in 4 do)
        t.open("klondike-draw3", "random")
        path = _to_a_card_up("klondike-draw3", _seed(t.s["deal"]))
        if path:
            break
        t.page.evaluate("() => localStorage.clear()")  # the next try opens a new deal
    assert path, "no deal brought a card up by turning the stock"
    play_tokens(t, path)
    up = t.s["cards_up"]
    assert up >= 1
    assert (
        t.page.locator("#st-score").inner_text() == t.page.locator("#st-up").inner_text() == str(up)
    )
    assert aisleriot in t.page.locator("#st-score-row").get_attribute("title").lower()
    for game, words, other in (
        ("klondike-draw3", aisleriot, windows),
        ("klondike-1-pass", aisleriot, windows),
        ("klondike", windows, aisleriot),
        ("whitehorse", windows, aisleriot),
    ):
        t.page.goto(f"{t.base}/rules/{game}/")
        rules = t.page.locator("article.rules").inner_text().lower()
        assert words in rules, (game, rules)
        assert other not in rules, (game, rules)
    t.page.goto(f"{t.base}/rules/freecell/")
    assert "score" in t.page.locator("article.rules").inner_text().lower()
