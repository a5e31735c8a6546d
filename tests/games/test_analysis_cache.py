"""The shared analysis cache (games/play/analysis_cache.py) on real Redis: what one table of a
daily settled or found is found again for the same position of that daily, and only for
exactly that position; a full-knowledge line never becomes a hint while a card is hidden.

What a player can compute from what the cache shares: an entry answers only the very
position it was settled for (the hidden cards, the stock's order and the passes are in its
key), and every player who reaches that position has the same hidden cards under it, so a
cached answer is exactly what a search of the player's own table would have sent (the same
hint move, the same verdict) and says nothing of any other table.  A line found knowing
every card is shared only where nothing is hidden.  A cached answer comes sooner (a few ms
against a search), which tells a player only that someone else reached this table first:
no card is in that."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from games.engine import endgame, new_game, seen
from games.engine.solver import SOLVED, UNSOLVABLE, Budget, Hint, Result, hint, solve
from games.engine.solver.sampling import hidden_cards
from games.engine.solver.turning import turning_point
from games.models import GameSession
from games.play import analysis_cache

DAY = dt.date(2026, 12, 1)


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    r = redis.Redis.from_url(settings.REDIS_URL)
    for key in r.scan_iter(f"{settings.REDIS_KEY_PREFIX}:ac:*", count=1000):
        r.delete(key)
    analysis_cache._stored.clear()
    yield
    r.close()


def test_a_settled_dead_end_is_found_for_the_same_position_of_the_same_daily_only() -> None:
    g = new_game("klondike", 7)
    for token in ["s", "s", "s"]:
        g.play(token)
    verdict, kept = endgame.settle(g.copy())
    analysis_cache.keep_dead_end(("klondike", DAY), g, verdict, kept)
    other = new_game("klondike", 7)
    for token in ["s", "s", "s"]:
        other.play(token)
    assert analysis_cache.dead_end(("klondike", DAY), other) == (verdict, kept)
    assert analysis_cache.dead_end(("klondike", DAY + dt.timedelta(days=1)), other) is None
    assert analysis_cache.dead_end(("klondike-1-pass", DAY), other) is None
    other.play("s")
    assert analysis_cache.dead_end(("klondike", DAY), other) is None
    counts = analysis_cache.counts(("klondike", DAY))
    assert counts["dead:lookups"] == 2
    assert counts["dead:hits"] == 1


def test_tables_that_look_the_same_but_hide_other_cards_share_nothing() -> None:
    g = new_game("klondike", 7)
    swapped = g.copy()
    # Two face-down cards of column 7 change places: the player sees the same table.
    swapped.tab[6][0], swapped.tab[6][1] = swapped.tab[6][1], swapped.tab[6][0]
    assert hidden_cards(g) == hidden_cards(swapped)
    assert seen.view(g) == seen.view(swapped)
    analysis_cache.keep_dead_end(("klondike", DAY), g, False, None)
    analysis_cache.keep_hint(("klondike", DAY), g, Hint("s", "unknown", seconds=0.1))
    assert analysis_cache.dead_end(("klondike", DAY), swapped) is None
    assert analysis_cache.hint(("klondike", DAY), swapped) is None
    assert analysis_cache.hint(("klondike", DAY), g) == Hint("s", "unknown")


def test_a_full_knowledge_line_is_never_a_hint_while_cards_are_hidden() -> None:
    g = new_game("klondike", 7)
    line = solve(g, 10)
    assert line.status == SOLVED
    analysis_cache.keep_solved(("klondike", DAY), g, line)
    assert analysis_cache.solved(("klondike", DAY), g).moves == line.moves  # the analysis'
    assert analysis_cache.hint(("klondike", DAY), g) is None


def test_a_freecell_line_is_followed_by_the_next_players_hint_unless_it_goes_back() -> None:
    daily = ("freecell", DAY)
    g = new_game("freecell", 617)
    g.play("8a")
    found = solve(g, 10)
    analysis_cache.keep_hint(daily, g, Hint(found.moves[0], SOLVED, found.moves))
    same = new_game("freecell", 617)
    same.play("8a")
    kept = analysis_cache.hint(daily, same)
    assert kept == Hint(None, SOLVED, found.moves)  # a line for the engine to check
    followed = hint(same, Budget(10, 1), [kept.line])  # no search: one state at most
    assert followed.move == found.moves[0]
    assert followed.line == found.moves
    analysis_cache.keep_solved(daily, same, Result(UNSOLVABLE))  # never over a proof
    assert analysis_cache.solved(daily, same).moves == found.moves
    # Another table, whose only known line starts by taking the player's move back.
    back = new_game("freecell", 617)
    back.play("8b")
    analysis_cache.keep_solved(
        daily, back, Result(SOLVED, ["b8", *solve(new_game("freecell", 617), 10).moves])
    )
    kept = analysis_cache.hint(daily, back)
    assert kept is not None
    assert kept.line[0] == "b8"
    h = hint(back, Budget(10), [kept.line])
    assert h.move is not None
    assert h.move != "b8"


def test_a_second_analysis_of_the_same_game_searches_nothing() -> None:
    daily = ("freecell", DAY)
    moves = ["8a", "8b", "8c", "8d"]
    first = turning_point(
        "freecell", 617, moves, 20, solve_position=analysis_cache.caching_solver(daily)
    )
    before = analysis_cache.counts(daily)
    second = turning_point(
        "freecell", 617, moves, 20, solve_position=analysis_cache.caching_solver(daily)
    )
    after = analysis_cache.counts(daily)
    assert first == second
    looked = after["solve:lookups"] - before["solve:lookups"]
    assert looked >= 1
    assert after["solve:hits"] - before.get("solve:hits", 0) == looked


def test_the_analysis_has_the_deal_proven_by_its_certifying_line() -> None:
    daily = ("klondike", DAY)
    start = new_game("klondike", 7)
    line = solve(start, 10).moves
    search = analysis_cache.caching_solver(daily, (start, line))
    assert search(new_game("klondike", 7), None).moves == line  # no budget: never searched
    assert analysis_cache.counts(daily) == {}


def _walk_to_a_search(game: str, seed: int) -> list[str]:
    """The shortest of a few random walks (the stock included) that reaches a position whose
    verdict takes a search: with no share of the loop, the answer's verdict is settled.
    About one deal in eight has none among 40 walks of 40 moves (the daily changes every
    day), so then longer walks are tried until one is found."""
    best: list[str] = []
    for salt in range(400):
        if best and salt >= 40:
            break
        rng, g, tokens = random.Random(salt), new_game(game, seed), []
        for _ in range(40 if salt < 40 else 100):
            token = g.notation(rng.choice(list(g.legal_moves())))
            g.play(token)
            tokens.append(token)
            verdict = endgame.dead_end_within(g, None, 0.0)
            if verdict is None:
                if not best or len(tokens) < len(best):
                    best = tokens
                break
            if verdict or not list(g.legal_moves()):
                break
    return best


def test_two_players_of_a_daily_over_http_share_the_verdict_a_search_gave(api, settings):
    settings.DEAD_END_LOOP_MS = 0  # every verdict that needs a search is settled
    first, second = api(), api()
    s = first.start("klondike")
    daily = ("klondike", dt.date.fromisoformat(s["date"]))
    seed = int(GameSession.objects.get(pk=s["id"]).deal.seed)
    tokens = _walk_to_a_search("klondike", seed)
    assert tokens, "no walk of this deal needs a search: try more"
    g = new_game("klondike", seed)
    for token in tokens:
        g.play(token)
    exact = endgame.no_move_matters(g)
    said = [first.move(s, i, token).json()["no_legal_move"] for i, token in enumerate(tokens)]
    assert said[-1] is exact
    assert not any(said[:-1])
    assert analysis_cache.counts(daily)["dead:stored"] >= 1
    t = second.start("klondike")
    said = [second.move(t, i, token).json()["no_legal_move"] for i, token in enumerate(tokens)]
    assert said[-1] is exact
    assert analysis_cache.counts(daily)["dead:hits"] >= 1
