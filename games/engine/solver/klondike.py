"""The Klondike family (Klondike, its draw/pass variants, Whitehorse) with full knowledge.

Certification runs on the server and may read the hidden cards; players' hints never
come here directly (see :mod:`.klondike_hint`).

State: ``(cols, downs, talon, pos, found, passes)``.  ``talon`` is the stock and the waste
as one ``bytes`` in the order the cards are turned (the waste from its bottom, then the
stock from its next card); ``pos`` is how many of them are on the waste.  Turning the
stock moves ``pos`` on by the draw, turning the waste back sets it to 0, and playing the
waste top removes ``talon[pos - 1]``.

Stock turns are not searched one by one: each edge plays one card that some number of
turns (and perhaps a turn back) brings to the waste top, with those turns written out
in front of it.  With draw one and unlimited passes every talon card can be reached from
anywhere, so the key leaves ``pos`` out and positions that differ only in it are one.

Pruning (all of it keeps "unsolvable" a proof):

* cards go up by themselves when both foundations of the other colour hold the rank
  below and the other suit of their colour the rank two below (nothing could ever need
  them on the table, not even a card brought back down), aces and twos always -- from the
  waste only when drawing one card at a time (:mod:`.klondike_autoplay`), and then, with
  unlimited passes, from anywhere in the talon too (:mod:`.klondike_talon`);
* drawing one with unlimited passes, a talon card that is not safe goes up only when the
  next card of its suit could follow it next (from a column's top, or from the talon by
  this same rule): up, a card does nothing else that it could not do from the talon;
* the key takes the columns in any order (:meth:`KlondikeDomain.key`);
* a king's run moves into an empty column only from above other cards, and only into
  the first empty column (they are interchangeable);
* a move whose only use is to make a later one possible waits until just before that
  one, so the full search makes it only when that one could come next: a run split off
  the top of another (onto the twin of the card it leaves) only when the card it uncovers
  could then go up (at once, or, drawing one with unlimited passes, after the talon's
  cards of its suit, which the rule above holds back until it could follow), move, or
  take the run's twin; a card taken down from a foundation
  only when a card could land on it or on the ones under it that could follow it down;
  and, drawing one card with unlimited passes (any talon card can be played at any
  time), a talon card onto the table only when a card could land on it next -- from the
  talon only if one could land on that one, and so on.  Nothing changes in between that
  the waiting move needed, so some winning line is still searched when one exists
  (``prune``; tests/engine/test_klondike_proofs.py compares both ways);
* a position blocked for good (:mod:`.klondike_dead`) is proven lost before any search;
* only a search of the full space may answer "unsolvable" (the order it takes does not
  matter: it has seen every state).  The narrow searches drop moves that can be needed
  (runs split for no immediate gain, cards back from the foundations) and the eager ones
  send every card up the moment it can go, which can lose a win; so a narrow search
  that runs dry proves nothing and the schedule goes on.

Search: several short narrow best-first searches with different heuristics, then
restarts with varied weights and a little noise, then the full search with what is left
(see ``schedule`` and :mod:`.klondike_schedule`).  Wins are heavy-tailed -- one
heuristic finds a deal's win in a few hundred states where another wanders for a
million -- so many short runs of different searches find more wins in the same time
than one long run.
"""

from __future__ import annotations

import random

from ..game import Game
from ..piles import FOUNDATION, STOCK, WASTE, Move
from .klondike_autoplay import OTHER, autoplay
from .klondike_dead import lost
from .klondike_heuristic import KlondikeHeuristic, State
from .klondike_schedule import DRAW3_SCHEDULE, run
from .klondike_talon import reachable, talon_up
from .search import Budget, Result, replay_tokens

# _LAND[x]: the two cards that may land on x (one rank lower, the other colour);
# _TWIN[x]: the other card of x's rank and colour (the other place of x's run).
_LAND = tuple(
    tuple((x >> 2) * 4 - 4 + su for su in OTHER[x & 3]) if x >= 4 else (-1, -1) for x in range(52)
)
_TWIN = tuple(x ^ 3 for x in range(52))
_DOWN = tuple(bytes((d,)) for d in range(53))


class KlondikeDomain(KlondikeHeuristic):
    # Heuristic weights (their terms: :class:`.klondike_heuristic.KlondikeHeuristic`).
    weights: tuple[int, ...] = (5, 2, 1)
    # Narrow searches first: runs move between columns only when that turns a card face
    # up, empties a column or lets the card they uncover go up; cards never come back
    # from the foundations; an *eager* one also sends every card up as soon as it can
    # go.  They find most wins far sooner, but prove nothing.  (eager, weights, states)
    # each, tried in turn, then restarts (see :mod:`.klondike_schedule`): wins come from
    # many short runs of different searches far more than from a few long ones.
    restricted = False
    eager = False
    schedule: tuple[tuple[bool, tuple[int, ...], int], ...] = (
        (False, (5, 2, 1), 8_000),  # most deals fall to this one in a few hundred states
        (True, (2, 1, 1), 25_000),
        (False, (5, 2, 1, 0, 3, 1), 25_000),
        (True, (5, 2, 1, 0, 3, 1), 20_000),
    )
    full_weights: tuple[int, ...] = (5, 2, 1)
    # Of the budget, kept for the last full search (which also gets the restarts' turns
    # in the full space).  A lost deal is proven only once the full search has seen its
    # whole space, which takes a few seconds for many of them since the full search's
    # move filters came in; the narrow restarts find few wins that late.
    full_share = 0.25
    restart_unit = 2_500  # states of the shortest restart; the others are multiples
    restart_full = 0.2  # the share of restarts in the full space
    noise = 0
    root_autoplay = True  # hints turn it off when it would only undo the player's move
    safe_up = True  # safe cards up by themselves after each move; off, only to check that
    # The full search's move filters (see the pruning notes); off, only to check them.
    prune = True
    # The full search checks every position it expands for a block (:mod:`.klondike_dead`).
    dead_each = True
    canonical = True  # the key takes the columns in any order (off: as they lie)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.draw = game.draw
        self.redeals = game.redeals  # None: unlimited
        self._free_pos = self.draw == 1 and self.redeals is None
        self._back = game.foundation_back
        if self.draw > 1:
            # Drawing three, longer fixed runs and restarts win more (measured on the
            # deals draw three left unknown), and lost deals are often proven quickly.
            self.schedule = DRAW3_SCHEDULE
            self.restart_unit, self.full_share = 4_000, 0.15
        self._colinfo: dict[bytes, int] = {}
        self._rand = random.Random(0).random

    # -- the framework's interface ---------------------------------------------------------
    def initial(self) -> State:
        g = self.game
        cols = [bytes(p) for p in g.tab]
        downs = list(g.down)
        talon = bytes(g.waste) + bytes(g.stock[::-1])
        found = list(g.found)
        edge: list[Move] = []
        pos = len(g.waste)
        if self.root_autoplay:
            talon, pos = autoplay(cols, downs, talon, pos, found, edge, self.draw == 1)
        self.initial_moves = tuple(edge)
        self.dead_at_start = lost(cols, downs, found, g.foundation_back)
        return (tuple(cols), tuple(downs), talon, pos, tuple(found), g.redeals_used)

    def key(self, s: State) -> tuple[object, ...]:
        cols, downs, talon, pos, _, passes = s
        if self.restricted or not self.canonical:
            # The narrow searches (and hints' samples) prove nothing and rarely meet a
            # position again with its columns in another order: the cheap key, columns as
            # they lie.
            return (cols, downs, talon) if self._free_pos else (cols, downs, talon, pos, passes)
        # Column order does not matter: the same columns in another order are one position
        # (each column keyed behind its count of face-down cards; cards and counts are
        # below 255, the separator).  It halves the full search's space (seed 6: 601k
        # states to its proof, 321k sorted).
        table = b"\xff".join(sorted([_DOWN[d] + c for c, d in zip(cols, downs, strict=True)]))
        if self._free_pos:
            return (table, talon)
        return (table, talon, pos, passes)  # passes stays 0 when they are unlimited

    def search(self, budget: Budget) -> Result:
        """The narrow searches, restarts, then the full search (:func:`.klondike_schedule.run`)."""
        return run(self, budget)

    def set_full(self) -> None:
        """Set the domain for the full search (the only one whose dry run is a proof)."""
        self.restricted = self.eager = False
        self.noise = 0
        self.weights = self.full_weights

    def is_won(self, s: State) -> bool:
        return sum(s[4]) == 52

    def successors(self, s: State) -> list[tuple[tuple[Move, ...], State]]:  # noqa: C901  (the search's inner loop, once per node: kept in one frame)
        cols, downs, talon, pos, found, passes = s
        out: list[tuple[tuple[Move, ...], State]] = []
        n = len(cols)
        tops = [c[-1] if c else -1 for c in cols]
        empty = next((j for j in range(n) if not cols[j]), -1)
        child = self._child
        narrow = self.restricted
        prune = self.prune and not narrow  # the narrow searches are tuned without it
        waste_filter = prune and self._free_pos
        if prune and self.dead_each and lost(cols, downs, found, self._back, talon):
            return out  # blocked for good: nothing below it could win

        memo: dict[int, bool] = {}
        faceup = b"".join([c[d:] for c, d in zip(cols, downs, strict=True)])

        def free(x: int) -> bool:
            """Could card ``x`` make a move next that some winning line needs then?  Face
            up in a column, or a foundation's top; from the talon with one card turned at
            a time and no limit on passes, only if a card that could in turn land on it
            can (a card may wait in the talon until something is to be built on it)."""
            if x < 0:
                return False
            v = memo.get(x)
            if v is not None:
                return v
            if x in talon:
                v = not waste_filter or free(_LAND[x][0]) or free(_LAND[x][1])
            else:
                v = x in faceup or found[x & 3] == (x >> 2) + 1
            memo[x] = v
            return v

        def movable(i: int, k: int) -> bool:
            """May a run whose top is the card ``k`` cards down column ``i`` move next?"""
            for z in cols[i][downs[i] : len(cols[i]) - k]:
                if z in want or z >= 48 and empty >= 0:
                    return True
            return False

        def goes_up(x: int) -> bool:
            """May talon card ``x`` go up now?  Drawing one with unlimited passes, a talon
            card can be played at any time, and on its foundation it does nothing but let
            the next card of its suit follow (taken down again, it goes where it could have
            gone from the talon): so it goes up only when that card could follow next, from
            a column's top or (by the same rule, in turn) from the talon.  A king, always."""
            while x < 48:
                x += 4
                if x in tops:
                    return True
                if x not in talon:
                    return False
            return True

        def up_next(y: int) -> bool:
            """Could card ``y``, once uncovered, go up next?  At once when its foundation
            holds the rank below; drawing one with unlimited passes, also when every card
            of its suit between is in the talon: the talon rule holds those back until
            ``y`` could follow them, so this move must not wait for them in turn (each
            waiting for the other, neither would ever be searched)."""
            su, f = y & 3, found[y & 3]
            if f == y >> 2:
                return True
            return waste_filter and all(q * 4 + su in talon for q in range(f, y >> 2))

        # want[x]: the columns whose top card x (or a run headed by x) may go onto.
        want: dict[int, list[int]] = {}
        for j, u in enumerate(tops):
            if u >= 4:
                r = (u >> 2) - 1
                for su in OTHER[u & 3]:
                    want.setdefault(r * 4 + su, []).append(j)

        for i in range(n):
            c = cols[i]
            if not c:
                continue
            t = c[-1]
            if found[t & 3] == t >> 2:
                out.append(child(s, ((i, FOUNDATION + (t & 3), 1),)))
            up = len(c) - downs[i]
            # The face-up part of a column is always an ordered run: it was built so.
            for k in range(1, up + 1):
                dsts = want.get(c[-k])
                if dsts is None:
                    continue
                if k < up:
                    y = c[-k - 1]  # the card the run uncovers
                    if not up_next(y) and (
                        narrow or prune and not (free(_TWIN[c[-k]]) or movable(i, k))
                    ):
                        continue  # nothing could use the card it uncovers next
                for j in dsts:
                    out.append(child(s, ((i, j, k),)))
            if empty >= 0:
                k = 13 - (t >> 2)
                if k <= up and k < len(c) and c[-k] >> 2 == 12:
                    out.append(child(s, ((i, empty, k),)))

        # Cards the stock can bring to the waste top, each with the turns that bring it.
        for turns, p in reachable(len(talon), pos, passes, self.draw, self.redeals):
            x = talon[p - 1]
            if found[x & 3] == x >> 2 and (not waste_filter or goes_up(x)):
                out.append(child(s, (*turns, (WASTE, FOUNDATION + (x & 3), 1))))
            dsts = want.get(x)
            king = empty >= 0 and x >> 2 == 12
            if not (dsts or king) or waste_filter and not free(x):
                continue  # nothing could land on it next: it may wait in the talon
            for j in dsts or ():
                out.append(child(s, (*turns, (WASTE, j, 1))))
            if king:
                out.append(child(s, (*turns, (WASTE, empty, 1))))

        # Foundation cards back down (an ace or a two on the table could only ever hold a
        # card that goes up anyway, so those stay home).
        for su in range(4 if not narrow else 0):
            r = found[su]
            if r > 2:
                x = (r - 1) * 4 + su
                # Taken down, a card is of use only to hold a card that lands on it, or to
                # let the card under it come down in turn for the same: with nothing that
                # could land on any of them, it may stay up for now.
                if prune and not any(
                    free(_LAND[(q - 1) * 4 + su][0]) or free(_LAND[(q - 1) * 4 + su][1])
                    for q in range(r, 2, -1)
                ):
                    continue
                for j in want.get(x, ()):
                    out.append(child(s, ((FOUNDATION + su, j, 1),)))
                if r == 13 and empty >= 0:
                    out.append(child(s, ((FOUNDATION + su, empty, 1),)))
        return out

    def seen_after(self, move: Move) -> State:
        """The position after ``move`` as the player sees it: an unseen card is 52 (rank 13,
        never on a lower card, never up), so its score needs no hidden card (taps.py)."""
        g = self.game
        cols = tuple(bytes([52] * d) + bytes(p[d:]) for p, d in zip(g.tab, g.down, strict=True))
        return self._child(
            (
                cols,
                tuple(g.down),
                bytes(g.waste) + bytes([52] * len(g.stock)),
                len(g.waste),
                tuple(g.found),
                g.redeals_used,
            ),
            (move,),
        )[1]

    def tokens(self, path: list[tuple[Move, ...]]) -> list[str]:
        return replay_tokens(self.game, self.initial_moves, path)

    # -- helpers ---------------------------------------------------------------------------
    def _child(self, s: State, edge: tuple[Move, ...]) -> tuple[tuple[Move, ...], State]:
        cols_t, downs_t, talon, pos, found_t, passes = s
        cols = list(cols_t)
        downs = list(downs_t)
        found = list(found_t)
        for src, dst, n in edge:
            if src == STOCK:
                pos += n
                continue
            if dst == STOCK:
                pos = 0
                if self.redeals is not None:  # unlimited: the count would only split states
                    passes += 1
                continue
            if src == WASTE:
                x = talon[pos - 1]
                talon = talon[: pos - 1] + talon[pos:]
                pos -= 1
                moving = bytes((x,))
            elif src >= FOUNDATION:
                su = src - FOUNDATION
                found[su] -= 1
                moving = bytes((found[su] * 4 + su,))
            else:
                c = cols[src]
                moving = c[-n:]
                cols[src] = c = c[:-n]
                if downs[src] and downs[src] == len(c):
                    downs[src] -= 1
            if dst >= FOUNDATION:
                found[dst - FOUNDATION] += 1
            else:
                cols[dst] += moving
        full = list(edge)
        if not self.safe_up:
            return tuple(full), (tuple(cols), tuple(downs), talon, pos, tuple(found), passes)
        eager = self.eager and self.restricted
        talon, pos = autoplay(cols, downs, talon, pos, found, full, self.draw == 1 or eager, eager)
        if self.prune and self._free_pos and not self.restricted:
            talon, pos = talon_up(cols, downs, talon, pos, found, full)
        return tuple(full), (tuple(cols), tuple(downs), talon, pos, tuple(found), passes)
