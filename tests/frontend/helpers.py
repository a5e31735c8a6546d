"""Positions for the browser tests, found with the rules engine (the browser never sees it)."""

from __future__ import annotations

import random
from typing import Any

from games.engine import Game, endgame, new_game


def tokens_to_supermove(deal: int, tries: int = 4000) -> tuple[list[str], str]:
    """Moves from FreeCell ``deal`` to a position where a run of two or more cards may move
    between two non-empty columns, and that run's move."""
    rng = random.Random(deal)
    for _ in range(tries):
        g = new_game("freecell", deal)
        path: list[str] = []
        for _depth in range(12):
            for m in g.legal_moves():
                if m[2] >= 2 and m[0] < 8 and m[1] < 8 and g.tab[m[1]]:
                    return path, g.notation(m)
            moves = list(g.legal_moves())
            if not moves:
                break
            m = rng.choice(moves)
            path.append(g.notation(m))
            g.apply(m)
    raise AssertionError("no supermove found")


def tokens_to_refused_supermove(
    deal: int, tries: int = 4000
) -> tuple[list[str], tuple[int, int, int], str]:
    """Moves from FreeCell ``deal`` to a position where an ordered run fits another column
    but is longer than the free cells and empty columns allow; that move and its reason."""
    rng = random.Random(deal * 7 + 1)
    for _ in range(tries):
        g = new_game("freecell", deal)
        path: list[str] = []
        for _depth in range(10):
            found = _too_long(g)
            if found:
                return path, found, g.reason(found) or ""
            moves = list(g.legal_moves())
            # Filling free cells lowers the limit: prefer it.
            cells = [m for m in moves if 16 <= m[1] < 20]
            pool = cells if cells and rng.random() < 0.6 else moves
            if not pool:
                break
            m = rng.choice(pool)
            path.append(g.notation(m))
            g.apply(m)
    raise AssertionError("no refused supermove found")


def _too_long(g: Game) -> tuple[int, int, int] | None:
    for i in range(8):
        run = g.run_length(i)
        if run < 2:
            continue
        for j in range(8):
            if i == j or not g.tab[j]:
                continue
            for k in range(2, run + 1):
                m = (i, j, k)
                why = g.reason(m)
                if why and "free cells" in why:
                    return m
    return None


def tokens_to_dead_end(deal: int, tries: int = 2000) -> list[str]:
    """Random play from FreeCell ``deal`` until no legal move is left at all."""
    rng = random.Random(deal * 13 + 5)
    for _ in range(tries):
        g = new_game("freecell", deal)
        path: list[str] = []
        for _step in range(120):
            if endgame.no_legal_move(g):
                return path
            # Fill the free cells and never take a card back out: a dead end comes fast.
            moves = [m for m in g.legal_moves() if m[0] < 16]
            to_cells = [m for m in moves if 16 <= m[1] < 20]
            pool = to_cells if to_cells and rng.random() < 0.7 else moves
            if not pool:
                break
            m = rng.choice(pool)
            path.append(g.notation(m))
            g.apply(m)
    raise AssertionError("no dead end found")


def table_move(t: Any, want: Any = None) -> dict[str, Any]:
    """A legal move that is not a stock touch, touching the stock until one exists."""
    for _ in range(60):
        moves = [m for m in t.s["legal_moves"] if "stock" not in (m["from"], m["to"])]
        moves = [m for m in moves if want is None or want(m)]
        if moves:
            # Prefer moves between columns: they show the most of the table.
            moves.sort(key=lambda m: (not m["to"].startswith("tableau"), m["from"] == "waste"))
            return moves[0]
        seq = t.seq()
        t.pile("stock").click()
        t.wait_seq(seq)
    raise AssertionError("no table move in this deal")


def refused_pair(t: Any) -> tuple[str, str]:
    """A column's top card and a column it may not go on."""
    s = t.s
    piles = s["view"]["piles"]
    legal = {(m["from"], m["to"]) for m in s["legal_moves"] if m.get("count", 1) == 1}
    cols = [p for p in piles if p.startswith("tableau:") and piles[p] and piles[p][-1]]
    for a in cols:
        for b in cols:
            if a != b and (a, b) not in legal:
                return a, b
    raise AssertionError("every card fits everywhere?")


def play_tokens(t: Any, tokens: list[str], until_finish: bool = False) -> dict[str, Any]:
    """Play ``tokens`` through the API (quicker than by hand), stopping once the finish is
    offered if ``until_finish``, then show the table; the last move's answer."""
    sid = t.s["id"]
    body: dict[str, Any] = t.api(f"/api/sessions/{sid}/")["body"]
    for tok in tokens:
        r = t.api(f"/api/sessions/{sid}/moves/", {"seq": body["seq"], "move": tok})
        assert r["status"] == 200, r
        body = r["body"]
        if until_finish and body["can_finish"]:
            break
    t.page.reload()
    t.page.wait_for_selector("#table[data-ready]")
    return body
