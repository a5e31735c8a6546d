"""The Klondike search's estimate of how far a position is from a win (lower first): the
best-first searches expand the position it ranks best, so the weights of its terms are what
the narrow searches and the restarts vary (see :mod:`.klondike_schedule`)."""

from __future__ import annotations

from collections.abc import Callable

from .search import disorder

State = tuple[tuple[bytes, ...], tuple[int, ...], bytes, int, tuple[int, ...], int]


class KlondikeHeuristic:
    # Heuristic weights: face-down cards, cards not home, cards above a lower card of
    # their column; then optionally the squares of the face-down piles, kings lying on
    # other cards, cards covering the next card of each suit, and cards in the talon.
    weights: tuple[int, ...]
    noise: int  # heuristic noise, in 16ths of a unit (restarts only)
    _colinfo: dict[bytes, int]  # each column's cards above a lower card, once counted
    _rand: Callable[[], float]

    def heuristic(self, s: State) -> int:
        cols, downs, talon, _, found, _ = s
        info = self._colinfo
        blocked = 0
        for c in cols:
            if c:
                b = info.get(c)
                if b is None:
                    b = info[c] = disorder(c)
                blocked += b
        w = self.weights
        h = w[0] * sum(downs) + w[1] * (52 - sum(found)) + w[2] * blocked
        if len(w) > 3:
            w = (*w, 0, 0, 0, 0)
            # Deep piles of face-down cards cost more than the same number spread out.
            if w[3]:
                h += w[3] * sum(d * d for d in downs)
            if w[4]:
                # Kings lying on other cards: each waits for an empty column.
                h += w[4] * sum(1 for c in cols for x in c[1:] if x >= 48)
            if w[5]:
                # Cards covering the next card each suit needs.
                for su in range(4):
                    r = found[su]
                    if r < 13:
                        x = r * 4 + su
                        for c in cols:
                            i = c.find(x)
                            if i >= 0:
                                h += w[5] * (len(c) - 1 - i)
                                break
            # Cards still in the stock and waste: out there they only wait their turn.
            h += w[6] * len(talon)
        if self.noise:
            # Restarts break ties and near-ties at random: another order, another dive.
            return h * 16 + int(self._rand() * self.noise)
        return h
