"""A whole Klondike game with the keyboard alone (docs/frontend.md, "Keyboard"), its moves
said in the live region: the arrows walk the piles and pick inside a column, Space picks,
Enter drops, turns the stock (or the waste back) and, once every card is up and the stock
empty, starts the finish.  (FreeCell's keyboard game is in test_table.py.)"""

from __future__ import annotations

from typing import Any

from tests.engine.kept_deals import KLONDIKE_LINE

# What the page knows before a move, read in one round trip: the move as the server lists
# it, the seq, where the focus is and the order the arrows walk.
_BEFORE = """(token) => {
    const s = window.solitaire.state;
    return {move: s.s.legal_moves.find(m => m.move === token) || null, seq: s.s.seq,
            canFinish: s.s.can_finish, won: s.s.won,
            focus: s.focus.pile, order: window.solitaire.order};
}"""


def _walk(t: Any, order: list[str], here: str, pile: str) -> str:
    a, b = order.index(here), order.index(pile)
    right, left = (b - a) % len(order), (a - b) % len(order)
    key, n = ("ArrowRight", right) if right <= left else ("ArrowLeft", left)
    for _ in range(n):
        t.page.keyboard.press(key)
    return pile


def _said(t: Any, before: str) -> str:
    t.page.wait_for_function(
        "(b) => document.getElementById('live').textContent !== '' "
        "&& document.getElementById('live').textContent !== b",
        arg=before,
    )
    return str(t.page.locator("#live").inner_text())


def test_klondike_is_won_with_the_keyboard_alone_and_its_moves_are_said(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = new_table().open("klondike", kept_deals["klondike"])
    t.page.locator("body").press("ArrowRight")
    said: set[str] = set()
    cards = 0  # card moves so far (a turn of the stock is shown, not said)
    for token in KLONDIKE_LINE:
        b = t.page.evaluate(_BEFORE, token)
        if b["canFinish"]:  # every card up, the stock empty (docs/rules.md)
            break
        move = b["move"]
        assert move, f"{token} is not among the server's legal moves"
        turn = "stock" in (move["from"], move["to"])
        check = not turn and cards % 10 == 0
        cards += not turn
        last = str(t.page.locator("#live").inner_text()) if check else ""
        if turn:  # a turn of the stock, or of the waste back
            _walk(t, b["order"], b["focus"], "stock")
            t.page.keyboard.press("Enter")
        else:
            here = _walk(t, b["order"], b["focus"], move["from"])
            for _ in range(move["count"] - 1):
                t.page.keyboard.press("ArrowUp")
            t.page.keyboard.press("Space")
            _walk(t, b["order"], here, move["to"])
            t.page.keyboard.press("Enter")
        t.wait_seq(b["seq"])
        if check:  # every tenth card move: the live region said something new
            said.add(_said(t, last))
    assert not t.s["won"], "the line ended before the finish was offered"
    assert t.s["can_finish"], "the line ended before the finish was offered"
    t.page.keyboard.press("Enter")
    t.page.locator("#win").wait_for(state="visible", timeout=30_000)
    assert t.s["won"]
    assert len(said) > 3, said  # moves were said, and not all in one sentence
    t.shot("klondike-won-by-keyboard")
