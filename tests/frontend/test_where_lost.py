"""After a resigned game the table says where it was lost (games/daily/analysis.py), and its
"Watch it" opens the replay at the position before the losing move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.test_analysis import losing_line

# The words per language: "Move N lost the game: moving ...", "... instead still won.",
# the replay's button.
WORDS = {
    "en-US": ("Move {n} lost the game: moving ", "instead still won", " of ", "Watch it"),
    "fr-FR": ("Le coup {n} a perdu la partie : ", "à la place gagnait encore", " de ", "La revoir"),
}


@pytest.mark.parametrize("locale", sorted(WORDS))
def test_a_resigned_freecell_daily_says_where_it_was_lost(new_table: Any, locale: str) -> None:
    lost, still, of, watch = WORDS[locale]
    t = new_table(locale=locale).open("freecell", "daily")
    sid = t.s["id"]
    moves = losing_line(t.s["deal_number"])
    for seq, token in enumerate(moves):
        assert t.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": token})["status"] == 200
    t.page.reload()
    t.page.wait_for_selector("#table[data-ready]")
    assert not t.page.locator("#btn-lost").is_visible()  # still being played
    t.page.once("dialog", lambda d: d.accept())
    t.page.locator("#btn-resign").click()
    t.page.wait_for_function("() => window.solitaire.state.s.status === 'resigned'")
    t.page.locator("#btn-lost").click()
    notice = t.page.locator("#notice", has_text=still)
    notice.wait_for(timeout=30000)
    tp = t.page.evaluate("() => window.solitaire.state.lostAt")
    text = notice.inner_text()
    # In words, as the table names cards and piles: "Move 12 lost the game: moving the
    # three of clubs to free cell 1. Moving the two of hearts to ... instead still won."
    assert lost.format(n=tp + 1) in text, text
    assert of in text, text
    assert still in text, text
    assert f"({moves[tp]})" not in text, text
    t.page.locator("#notice button", has_text=watch).click()
    t.page.locator("#rp-step", has_text=f"{tp} / {len(moves)}").wait_for()
    assert not t.errors, t.errors
