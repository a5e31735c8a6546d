"""What the table says, in English and French: New deal on a ranked daily in play asks
first and says what becomes of the attempt (docs/rules.md, "The daily challenge"), and
FreeCell's counter has one name, the rule text's, on the table and on the rules page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

WORDS = {  # the confirmation's words on what becomes of the attempt, per language
    "en-US": ("until the day closes", "come back to it"),
    "fr-FR": ("jusqu'à la fin de la journée", "vous pouvez y revenir"),
}


@pytest.mark.parametrize("locale", sorted(WORDS))
def test_new_deal_on_a_ranked_daily_in_play_asks_first(new_table: Any, locale: str) -> None:
    t = new_table(locale=locale).open("freecell")
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
    assert len(asked) == 1 and all(w in asked[0] for w in WORDS[locale]), asked
    assert "deal=random" not in t.page.url and t.s["id"] == attempt
    # N, accepted: a new deal; the daily's page opens the same attempt again.
    t.page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    t.page.locator("body").press("n")
    t.page.wait_for_url("**/play/freecell/?deal=random")
    assert len(asked) == 2
    t.open("freecell")
    assert t.s["id"] == attempt and t.seq() == seq and t.s["status"] == "playing"


def test_new_deal_on_practice_asks_nothing(new_table: Any) -> None:
    t = new_table().open("freecell", "1")
    asked: list[str] = []
    t.page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    t.page.evaluate("() => window.solitaire.move('8a')")
    t.page.locator("#btn-third").click()
    t.page.wait_for_url("**/play/freecell/?deal=random")
    assert not asked


@pytest.mark.parametrize(("locale", "quotes"), [("en-US", "“{}”"), ("fr-FR", "« {} »")])
def test_freecells_counter_has_the_rules_name(new_table: Any, locale: str, quotes: str) -> None:
    t = new_table(locale=locale).open("freecell", "1")
    shown = t.page.locator("#st-limit").inner_text().strip()
    assert re.fullmatch(r"\D+ \d+", shown), shown
    name = re.sub(r"\d+", "N", shown)
    t.page.goto(f"{t.base}/rules/freecell/")
    rules = t.page.locator("article.rules").inner_text()
    assert quotes.format(name) in rules, (name, rules)
    if locale == "en-US":
        doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
        assert f'"{name}"' in doc
