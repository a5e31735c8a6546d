"""What a game declares, and the table it is played on.

A game is a subclass that sets the class attributes below: what its columns do (the
behaviours of ``columns.py``), its cells, foundations and stock, its score, and the facts
the rest of the site asks of it (whether it has a daily deal, whether its deal numbers are
public, how its wins are ranked, the names its notation gives the piles).  Nothing outside
the game classes tests a game's key to learn any of these.

>>> from games.engine import GAMES
>>> fc, bd = GAMES["freecell"], GAMES["bakers-dozen"]
>>> fc.public_deal_numbers, fc.ranked_by_time, fc.has_score, bd.public_deal_numbers
(True, True, False, False)
>>> [(key, cls.scoring) for key, cls in GAMES.items() if key.startswith("klondike")]
[('klondike', 'windows'), ('klondike-draw3', 'aisleriot'), ('klondike-3-passes', 'aisleriot'), ('klondike-1-pass', 'aisleriot')]
>>> bd.time_bonus(14.17), fc.time_bonus(14.17)
(1186, 0)
>>> [key for key, cls in GAMES.items() if cls.daily]
['klondike', 'klondike-draw3', 'whitehorse', 'freecell', 'bakers-dozen']
"""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

from .cards import Card
from .columns import ALTERNATE, ANY_CARD, SINGLE_CARD, Build, EmptyPile, Runs, ordered_run
from .piles import EMPTY, Move, Pile
from .scoring import NONE, SCORERS, Scorer


class Table:
    # -- the game ----------------------------------------------------------------------------
    key: ClassVar[str] = ""
    title: ClassVar[str] = ""  # in English; the pages translate it (frontend/locale)
    # The rules page's words, in English (the pages translate each sentence; a test checks
    # that each has its French): the deal in one paragraph, then the rules of play, a
    # sentence each.  The page adds the line of the scoring scheme, then ``controls``: how
    # the table is played with a mouse, a finger or the keys.  docs/rules.md says the same
    # at length.
    rules: ClassVar[tuple[str, ...]] = ()
    controls: ClassVar[tuple[str, ...]] = ()
    # One deal a day for everyone, ranked (docs/rules.md, The daily challenge).  The
    # catalogue's order of the daily games is the home page's order.
    daily: ClassVar[bool] = False
    # The seed is a deal number players know, share and ask for ("deal": N in the API);
    # otherwise seeds stay on the server (docs/deals.md).
    public_deal_numbers: ClassVar[bool] = False

    # The search that solves it, hints it and certifies its dailies: a name in the solver's
    # registry (solver/registry.py SOLVERS), whose rules the game must follow (the registry
    # refuses it otherwise).  None: no solver -- a hint is then a plain move, and no deal
    # of it can be certified, so it cannot have a daily.
    solver: ClassVar[str | None] = None

    # -- the tableau, the cells, the foundations and the stock -------------------------------
    columns: ClassVar[int] = 0
    free_cells: ClassVar[int] = 0
    # What a column does (columns.py): what its top card takes, what an empty one takes,
    # which cards leave it at once.  Objects the rules engine asks, never names to test.
    build: ClassVar[Build] = ALTERNATE
    empty_pile: ClassVar[EmptyPile] = ANY_CARD
    runs: ClassVar[Runs] = SINGLE_CARD
    foundation_back: ClassVar[bool] = False  # may a foundation's top card come back down?
    draw: ClassVar[int] = 0  # cards turned per touch of the stock; 0 = no stock
    redeals: ClassVar[int | None] = None  # times the waste may be turned back; None = always
    undo_limit: ClassVar[int | None] = None
    # Cards the player cannot see: face down in the columns, or in the stock.  Everything
    # that must not peek keys off this fact and nothing else (a stock or face-down counts
    # stand for nothing): the hint's samples (solver/hint.py), dead-end verdicts, the
    # post-game analysis, the leak and seed-space tests.  A test checks it against the
    # deal (tests/engine/test_declarations.py) and that such a game's hint never changes
    # when only the cards it hides are dealt again (tests/engine/test_hint_properties.py).
    hides_cards: ClassVar[bool] = False

    # -- the score, the ranking and the finish (docs/rules.md, Scores, Ranking order) --------
    # The scheme the game's rule text gives (scoring.py).  ``has_score`` and the function
    # that keeps the score follow from it (``__init_subclass__``); a table replayed under
    # another scheme (a game stored before its scoring changed) carries its own.
    scoring: ClassVar[str] = NONE
    has_score: ClassVar[bool] = False
    # A plain function (the class's through staticmethod, a table's own in its __dict__),
    # called as self._scorer(self, move, extra): not a bound method, so that a table's own
    # copies and pickles by reference.
    _scorer: Scorer = staticmethod(SCORERS[NONE])
    ranked_by_time: ClassVar[bool] = False  # wins by time then moves, not by score first
    time_bonus_from: ClassVar[int] = 0  # a win adds max(0, this - whole seconds); 0 = none
    # The table offers "Send up" beside the finish: every card that can go up now, one by
    # one, whether or not that wins (the finish itself is offered only when it wins).
    send_up: ClassVar[bool] = False
    # A tap sends a card to its best destination, not only to a foundation: the state
    # marks that move ``best`` (taps.py, docs/rules.md "Mouse and touch").
    tap_to_best: ClassVar[bool] = False

    # A daily's difficulty (docs/rules.md, "Par and medals"): positions the certifying
    # search looked at per move of its line, at most this for easy, above it for hard.
    # Per game: a stock search and a free-cell search count positions very differently, so
    # each daily game sets its own from a sample (bench/difficulty.py); this is only for a
    # game that has none yet.
    effort_per_move: ClassVar[tuple[float, float]] = (5.0, 40.0)

    # -- the notation's names for the piles (docs/api.md, Move notation) ---------------------
    column_names: ClassVar[str] = ""  # one character per column, left to right
    # How a foundation is named as the source of a move, "{suit}" standing for its suit's
    # letter in lower case; None when the notation cannot name one, so that the table page
    # cannot even send the move for the server to refuse.
    foundation_from: ClassVar[str | None] = None

    # -- dead ends (docs/rules.md, Dead ends; see dead_ends.py) ------------------------------
    dead_end_search: ClassVar[bool] = True  # FreeCell's dead end is "no legal move at all"
    DEAD_END_BUDGET: ClassVar[int] = 1000

    # -- the table ---------------------------------------------------------------------------
    seed: int
    tab: list[list[Card]]  # tableau piles, deepest card first
    down: list[int]  # per pile: how many of its first cards are face down
    cells: list[Card]  # EMPTY where a free cell holds nothing
    found: list[int]  # cards on each suit's foundation
    stock: list[Card]  # last element is the next card turned
    waste: list[Card]
    redeals_used: int
    score: int
    moves: int  # moves on the board now (an undo takes one back)
    # (move, score before it, what undo needs to put back of its automatic consequences)
    history: deque[tuple[Move, int, Any]] | list[tuple[Move, int, Any]]
    _fits: tuple[bool, ...]  # the game's build.fits
    # The last dead-end search's verdict, kept on the table (see dead_ends._remembered).
    dead_end_memo: tuple[bool, Any, tuple[Move, ...]] | None = None
    # Verdicts of positions this table has been in (see dead_ends._known), never copied.
    dead_end_known: dict[bytes, tuple[bool, Any]] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._declare_scoring(cls.scoring)

    @classmethod
    def _declare_scoring(cls, scheme: str) -> None:
        if scheme not in SCORERS:
            raise TypeError(
                f"{cls.__name__}: unknown scoring {scheme!r}; schemes: {', '.join(SCORERS)}"
            )
        cls._scorer = staticmethod(SCORERS[scheme])
        cls.has_score = scheme != NONE

    def score_under(self, scheme: str) -> None:
        """Keep this table's score by ``scheme`` from now on, whatever the game declares
        (before any move: a stored game replayed as it was scored)."""
        if scheme not in SCORERS:
            raise ValueError(f"unknown scoring {scheme!r}; schemes: {', '.join(SCORERS)}")
        if scheme == type(self).scoring:
            return
        # Instance attributes shadow the class's: the function from scoring.py (pickled by
        # reference, copied by copy()), not a bound method.
        self.__dict__.update(scoring=scheme, has_score=scheme != NONE, _scorer=SCORERS[scheme])

    @classmethod
    def time_bonus(cls, seconds: float) -> int:
        """What a win in ``seconds`` (from the first move) adds to the score."""
        if not cls.time_bonus_from:
            return 0
        return max(0, cls.time_bonus_from - int(seconds))

    # -- reading the table -------------------------------------------------------------------
    @property
    def cards_up(self) -> int:
        f = self.found
        return f[0] + f[1] + f[2] + f[3]

    @property
    def won(self) -> bool:
        return self.cards_up == 52

    @property
    def history_len(self) -> int:
        return len(self.history)

    @property
    def passes_left(self) -> int | None:
        """Turns of the waste back into the stock still allowed (None: unlimited)."""
        return None if self.redeals is None else self.redeals - self.redeals_used

    def foundation_top(self, suit: int) -> Card | None:
        n = self.found[suit]
        return (n - 1) * 4 + suit if n else None

    def run_length(self, pile: Pile) -> int:
        """Length of the ordered face-up run at the end of a tableau pile."""
        return ordered_run(self, pile)

    def move_limit(self, to_empty: bool = False) -> int:
        """How many cards may move between columns now ("Move N" in FreeCell), into an
        empty column with ``to_empty``."""
        onto, into_empty = self.runs.limits(
            self, self.cells.count(EMPTY), sum(1 for p in self.tab if not p)
        )
        return into_empty if to_empty else onto
