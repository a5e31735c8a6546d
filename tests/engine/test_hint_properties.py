"""Hints a player can follow: never back to a position of the game's path, the solver's next
move whenever it has a winning line, a win at the end of a certified deal in every game
where nothing is hidden, and blind to every card the player has not seen in every game
that declares it hides cards."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, Game, new_game
from games.engine.positions import packed
from games.engine.solver import SOLVED, Budget, hint, sampling, solve
from games.engine.solver.registry import has_solver

FULL_INFORMATION = sorted(k for k, cls in GAMES.items() if not cls.hides_cards)
HIDES_CARDS = sorted(k for k, cls in GAMES.items() if cls.hides_cards)
# The games with a search (a practice game may declare none: its hint is a plain move).
SEARCHED = sorted(k for k, cls in GAMES.items() if has_solver(cls))
# A hint's budget counted in positions, so a busy machine changes nothing; the seconds are
# only a bound no search here comes near.
STATES = 20_000


# Deals the solver proves winnable knowing every card, a few per game with a search
# (checked below).
CERTIFIED = {
    "klondike": (1, 2, 4, 5),
    "klondike-draw3": (1, 4, 5, 7),
    "klondike-3-passes": (4, 5, 7, 8),
    "klondike-1-pass": (4, 7, 15, 62),
    "whitehorse": (1, 2, 3, 4),
    "yukon": (3, 4, 6, 8),
    "freecell": (1, 2, 3, 4),
    "bakers-dozen": (1, 4, 5, 6),
}


@cache
def certified(key: str) -> tuple[tuple[int, list[str]], ...]:
    """``key``'s certified deals, with the lines that prove them."""
    out = []
    for seed in CERTIFIED[key]:
        r = solve(new_game(key, seed), Budget(120, 60_000))
        assert r.status == SOLVED, f"{key} {seed} is not certified"
        out.append((seed, r.moves))
    return tuple(out)


def test_every_game_has_certified_deals_here() -> None:
    assert set(CERTIFIED) == set(SEARCHED)


def follow(g: Game, moves: int, states: int = STATES) -> list[bytes]:
    """Play every hinted move (carrying the hint's line, as the site does) until the game
    is won, the hint has no move, or ``moves`` moves; the positions met, in order."""
    positions = [packed(g, in_place=True)]
    line: list[str] = []
    for _ in range(moves):
        if g.won:
            break
        h = hint(g, Budget(60, states), [line])
        if h.move is None:
            break
        if line and h.status == SOLVED:
            assert h.move == line[0], "a winning line is followed to its end"
        g.play(h.move)
        line = h.line[1:]
        positions.append(packed(g, in_place=True))
    return positions


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(set(FULL_INFORMATION) & set(SEARCHED))), pick=st.integers(0, 3))
def test_following_hints_from_a_certified_deal_wins_and_never_repeats_a_position(
    key: str, pick: int
) -> None:
    seed, _ = certified(key)[pick]
    g = new_game(key, seed)
    positions = follow(g, 400)
    assert len(set(positions)) == len(positions)
    assert g.won


@pytest.fixture
def quick_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    # Fewer and smaller samples: the rule checked here holds whatever they find.
    monkeypatch.setattr(sampling, "SAMPLES", 3)
    monkeypatch.setattr(sampling, "SAMPLE_STATES", 150)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(key=st.sampled_from(sorted(set(HIDES_CARDS) & set(SEARCHED))), pick=st.integers(0, 3))
def test_following_hints_with_hidden_cards_never_repeats_a_position(
    quick_samples: None, key: str, pick: int
) -> None:
    seed, _ = certified(key)[pick]
    g = new_game(key, seed)
    positions = follow(g, 150)
    assert len(set(positions)) == len(positions)


@pytest.mark.parametrize("seed", [1, 2])
def test_bakers_dozen_hints_no_longer_go_round_in_circles(seed: int) -> None:
    """The loop players met: the hints took cards back and forth between columns (``jt``,
    ``6k``, ``tj``, ``k6``...), each search finding another line through the positions
    already played.  With 3,000 positions a hint, the hints of deal 2 came back to move
    8's position at move 11, those of deal 1 to move 20's at move 24."""
    g = new_game("bakers-dozen", seed)
    positions = follow(g, 30, states=3_000)
    assert len(set(positions)) == len(positions)


@pytest.mark.parametrize("key", sorted(set(FULL_INFORMATION) & set(SEARCHED)))
def test_with_a_winning_line_the_hint_is_its_next_move(key: str) -> None:
    seed, line = certified(key)[0]
    g = new_game(key, seed)
    for token in line[:5]:
        g.play(token)
    rest = line[5:]
    h = hint(g, Budget(60, 10), [["1h"], rest])  # a stale line first: skipped
    assert h.status == SOLVED
    assert h.move == rest[0]
    assert h.line == rest


def test_a_line_that_comes_back_to_the_path_is_not_followed() -> None:
    seed, line = certified("freecell")[0]
    g = new_game("freecell", seed)
    g.play("1a")
    # A winning line that first takes the move back, then plays the certified line.
    h = hint(g, Budget(60, STATES), [["a1", *line]])
    assert h.move is not None
    assert h.move != "a1"
    g.play(h.move)
    assert packed(g) != packed(new_game("freecell", seed))


def played(g: Game, token: str) -> Game:
    after = g.copy()
    after.play(token)
    return after


def never_seen(g: Game, key: str, seed: int, tokens: list[str]) -> set[int]:
    """The cards of the table the player has never seen, found by replaying the game from
    its deal (independently of the hint's own bookkeeping): face down now, or in the stock
    and never turned onto the waste."""
    replay = new_game(key, seed)
    shown = set(replay.waste) | {c for i, p in enumerate(replay.tab) for c in p[replay.down[i] :]}
    for token in tokens:
        replay.play(token)
        shown |= set(replay.waste)
        shown |= {c for i, p in enumerate(replay.tab) for c in p[replay.down[i] :]}
    assert packed(replay) == packed(g)
    hidden = {c for i, p in enumerate(g.tab) for c in p[: g.down[i]]} | set(g.stock)
    return hidden - shown


def deal_again(g: Game, unseen: set[int], rng: random.Random) -> Game:
    """``g`` with only its never-seen cards dealt again among their own places."""
    other = g.copy()
    places = [(i, j) for i, p in enumerate(g.tab) for j, c in enumerate(p) if c in unseen]
    stock = [j for j, c in enumerate(g.stock) if c in unseen]
    cards = sorted(unseen)
    rng.shuffle(cards)
    for (i, j), c in zip(places, cards, strict=False):
        other.tab[i][j] = c
    for j, c in zip(stock, cards[len(places) :], strict=True):
        other.stock[j] = c
    return other


# Each game that declares hidden cards gets its own examples: a game added to the catalogue
# with ``hides_cards`` is checked here whoever adds it, not only when the draw picks it.
@pytest.mark.parametrize("key", HIDES_CARDS)
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(1, 10_000), salt=st.integers(), moves=st.integers(0, 40))
def test_every_game_that_hides_cards_hints_the_same_whatever_its_unseen_cards(
    quick_samples: None, key: str, seed: int, salt: int, moves: int
) -> None:
    """The declared fact and the behaviour agree: permuting only the cards the player has
    never seen (face down, or in the stock and never turned) never changes the hint.

    What a player could compute from a hint: it is a function of what they see (the table,
    the stock cards turned before and where they lie, the path) and of nothing else, so it
    carries no information about a face-down card or an unturned stock card."""
    rng = random.Random(salt)
    g = new_game(key, seed)
    tokens: list[str] = []
    for _ in range(moves):
        legal = list(g.legal_moves())
        if not legal or g.won:
            break
        tokens.append(g.notation(rng.choice(legal)))
        g.play(tokens[-1])
    unseen = never_seen(g, key, seed, tokens)
    base = hint(g, Budget(60, 10**6)).move
    for _ in range(2):
        other = deal_again(g, unseen, rng)
        assert hint(other, Budget(60, 10**6)).move == base
