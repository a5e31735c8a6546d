"""What every hint shares: its answer, the path it must never go back to, and the fallback
move when no search finds a line (docs/rules.md, Hints).

A hint never proposes a move that returns to a position already on the game's path: the
positions the game has been in, as far back as its history goes (``path``), are compared
with the position after each move -- and after each move of the stock turns a solver's
step writes out in front of its card.  Positions are compared as the player sees them
(``seen_key``): along one game a face-down card never changes while it stays face down,
and the stock keeps its order, so two positions of one path that look the same are the
same, and the comparison needs no hidden card.  Taking the previous move back is the
shortest such loop; going round the stock with nothing played is another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..game import Game, IllegalMove
from ..piles import EMPTY, FOUNDATION, STOCK, Move

_UNSEEN = 52  # a card the player has not seen, in a key


@dataclass
class Hint:
    move: str | None  # the move to show, in the game's notation (None: no move at all)
    status: str  # SOLVED: on a winning line; UNSOLVABLE: proven; UNKNOWN: heuristic move
    line: list[str] = field(default_factory=list)  # the winning line, when one was found
    seconds: float = 0.0
    cancelled: bool = False


def seen_key(g: Game) -> bytes:
    """The position as the player sees it, in a few dozen bytes: the columns in sorted
    order (where a column stands changes nothing), each behind its face-down count with
    its face-down cards masked, then the cells, the foundations, the stock's size (its
    cards masked), the waste and the passes used when they are limited."""
    out = bytearray()
    cols = sorted(
        bytes([_UNSEEN] * d) + bytes(p[d:]) + bytes((64 + d,))
        for p, d in zip(g.tab, g.down, strict=True)
    )
    for c in cols:
        out += c
        out.append(255)
    out += bytes(63 if c == EMPTY else c for c in g.cells)
    out += bytes(g.found)
    out.append(min(len(g.stock), 254))
    out += bytes(g.waste)
    out.append(255)
    out.append(min(g.redeals_used, 254) if g.redeals is not None else 0)
    return bytes(out)


def walk_back(game: Game) -> tuple[set[bytes], set[Card]]:
    """The keys of every position on the game's path, this one included, and every card
    that lay on the waste at one of them (the player has seen it turned)."""
    g = game.copy()
    keys = {seen_key(g)}
    waste = set(g.waste)
    while g.history:
        g.undo()
        keys.add(seen_key(g))
        waste.update(g.waste)
    return keys, waste


def path(game: Game) -> set[bytes]:
    return walk_back(game)[0]


def steps_new(game: Game, tokens: Iterable[str], seen: set[bytes]) -> int:
    """How many of ``tokens``, played from ``game``, each lead to a position that is new
    (neither on the path nor met earlier along them); stops at the first that does not,
    or that the rules refuse."""
    g = game.copy()
    g.history = []  # only this walk's own moves
    met = set(seen)
    n = 0
    for token in tokens:
        try:
            g.play(token)
        except IllegalMove:
            return n
        k = seen_key(g)
        if k in met:
            return n
        met.add(k)
        n += 1
    return n


def line_wins(game: Game, line: Sequence[str], seen: set[bytes]) -> bool:
    """Is ``line`` a winning line from here that never comes back to a position of the
    path, nor to one of its own?"""
    if not line or steps_new(game, line, seen) != len(line):
        return False
    g = game.copy()
    for token in line:
        g.play(token)
    return g.won


def fresh_moves(game: Game, seen: set[bytes]) -> list[Move]:
    """The legal moves whose position is not on the path, in the engine's order."""
    g = game.copy()
    out = []
    for m in game.legal_moves():
        g.apply(m)
        if seen_key(g) not in seen:
            out.append(m)
        g.undo()
    return out


class AvoidPath:
    """A domain whose first steps leave out every step that goes through a position of
    the path (a step is a move with the turns and safe moves the domain writes around it)."""

    _OWN = frozenset(("inner", "game", "seen", "root", "filtered", "_checked"))

    def __init__(self, inner: Any, game: Game, seen: set[bytes]) -> None:
        self.inner, self.game, self.seen = inner, game, seen
        self.root: Any = None
        self.filtered = False
        self._checked: dict[tuple[str, ...], bool] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        # A search's settings (weights, narrow or full, noise) are the inner domain's.
        if name in self._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.inner, name, value)

    def initial(self) -> Any:
        self.root = self.inner.initial()
        return self.root

    def successors(self, s: Any) -> Any:
        out = self.inner.successors(s)
        # Equal, not only the same object: each search of a race makes its own start (the
        # last made is self.root), and a depth-first line is shortened from its own.
        if s is self.root or s == self.root:
            keep = [e for e in out if self.allowed(e[0])]
            self.filtered = self.filtered or len(keep) != len(out)
            return keep
        return out

    def allowed(self, edge: tuple[Any, ...]) -> bool:
        """Does this first step (after the domain's own safe moves at the start) reach only
        new positions?"""
        tokens = tuple(self.inner.tokens([edge]))
        ok = self._checked.get(tokens)
        if ok is None:
            ok = self._checked[tokens] = steps_new(self.game, tokens, self.seen) == len(tokens)
        return ok


def best_first_step(dom: AvoidPath) -> str | None:
    """The first move of the step whose position the domain's heuristic likes best, among
    the steps that avoid the path."""
    s = dom.initial()
    if dom.inner.initial_moves and dom.allowed(()):
        return str(dom.inner.tokens([])[0])  # a card that goes up safely: a sound move
    best: tuple[int, int] | None = None
    best_edge = None
    for i, (edge, child) in enumerate(dom.successors(s)):
        score = (dom.inner.heuristic(child), i)
        if best is None or score < best:
            best, best_edge = score, edge
    if best_edge is None:
        return None
    return str(dom.inner.tokens([best_edge])[0])


def plain_move(
    game: Game, seen: set[bytes], rank: Callable[[Move], Any] | None = None
) -> str | None:
    """A move when the domain offers none that avoids the path (its searches prune moves
    that a plain rule still makes): a card that can go up, else a move on the table, else
    the stock; among those, the lowest ``rank``.  Never one whose position is on the path."""
    moves = fresh_moves(game, seen)
    ups = [m for m in moves if FOUNDATION <= m[1] < STOCK]
    table = [m for m in moves if STOCK not in (m[0], m[1]) and not FOUNDATION <= m[0] < STOCK]
    for group in (ups, table, moves):
        if group:
            pick = min(group, key=rank) if rank is not None else group[0]
            return game.notation(pick)
    return None


__all__ = [
    "AvoidPath",
    "Hint",
    "best_first_step",
    "fresh_moves",
    "line_wins",
    "path",
    "plain_move",
    "seen_key",
    "steps_new",
    "walk_back",
]
