"""A Klondike, a Whitehorse and a Baker's Dozen deal with a winning line of each, kept as
written (found once by the solver with every card known), so that the browser tests of the
finish, the controls, the notices, the keyboard game and the highlights play the same tables
on any date: never today's daily, whose line the solver may not find in time.  tests/engine/test_kept_deals.py checks
that each line still wins and still passes the tables those tests look for."""

from __future__ import annotations

KLONDIKE_SEED = 0
# Stock turns to begin with, every card face up on move 250 with cards in the waste; the
# finish is offered there with 18 cards up.
KLONDIKE_LINE = """s s s s s s s s s s s s s s s s s s wh 3h 46 23 62 s s s s s s r s s s s
s s s s s s w2 wh s s s s s s s s s s s s s r s s s wh s s s s s s s s s s s s s s w1 s s s
s r s s s w2 s s s s s s s s s s s s s s s s r s w1 s s s s s s s s s s s s s s s s s w1 r s
s s s s s s s s s s s s s s w1 s r s s s s w1 61 s s s s s s s s s s w2 32 s r s s s s s s s
s w1 71 76 76 73 7h 3h 2h 2h 1h 6h s s s s s r s s s s wh 1h s s s s s s s s w2 r s s s s s
s s s w7 67 s s r s s s w1 27 2h 2h s s s w4 54 s s s r s s s w4 74 w7 27 42 4h 5h 54 52 3h
s s s s w4 64 6h 2h 2h 5h 1h 2h 1h 2h 1h 2h 6h 1h 2h 4h 7h 1h 2h 4h 7h 1h 2h 4h 7h 1h 2h 4h
7h 1h 2h 7h 2h r s s s w1 wh 1h wh s wh""".split()

WHITEHORSE_SEED = 0
# The finish is offered on move 361, with 41 cards up.
WHITEHORSE_LINE = """s s s s s s s s s s s s s wh s s r s s s s s s s s s s wh s s s s s r
s wh s s s s s s s s s s s s s s r s s s s wh s s s s s s s s s s r s s wh s s s s s s s s s
s s s r s s s s s s s wh s s s s s s s r s s s wh s wh 3h s s s s s s s s s r s s s s s s s
s s s s s wh s r s s s s s s s wh s s s s s r s s s s s wh 6h s s s s s s s r s s s wh s s s
s s s s wh 2h 4h 7h s s r s s w2 s s s s s s s s s r s s s s s wh s s s s s s r s s s s s s
s s s w1 s r s s s s s s s s w3 s s r s s w1 s s s s s s s s r s s s s s s s s w4 s r s s s
s s s s w3 s s r s s s s s w3 s s s s r s s s s s s w3 s s r s s s s s s w4 s s w1 r s s w1
w3 wh s s s w1 s s r s wh 5h s s s s w3 s r s s s s w3 w1 s r s s s s wh w1 w3 s r s s w3 wh
s s r s wh wh wh s wh 1h 3h 1h 3h 1h 3h 1h 3h 3h s wh 1h 1h 3h w1 wh 1h 1h 3h 4h wh 1h 3h 2h
3h 4h""".split()

BAKERS_DOZEN_SEED = 5
# A card may go up after the first move; everything left goes up by itself after move 48,
# with 27 cards up.
BAKERS_DOZEN_LINE = """jq jh jh kq kj 7j th qt 6h th 67 k6 36 37 3h 63 96 q9 qh 4q 4q 5h 1q
1h 51 5h th jh 81 2t 23 2h 9h 9h qh 7j 7t 74 78 7h 8h 95 qh th qh 3h 6h 65 62 6h 8h jh jh jh
qh 3h 4h th th 4h 8h 9h 1h 1h 2h 3h 5h 5h 8h qh qh 1h 2h 5h""".split()

# Each kept deal by its game's key: (seed, line).
LINES = {
    "klondike": (KLONDIKE_SEED, KLONDIKE_LINE),
    "whitehorse": (WHITEHORSE_SEED, WHITEHORSE_LINE),
    "bakers-dozen": (BAKERS_DOZEN_SEED, BAKERS_DOZEN_LINE),
}
